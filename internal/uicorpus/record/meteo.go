package main

import (
	"encoding/json"
	"fmt"
	"math"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"
)

// A local stand-in for the Open-Meteo weather API (the weather server's
// upstream): the same paths and the same JSON shapes (a block of units and a
// block of columns per resolution, geocoding results, elevations, its
// {"error": true, "reason": ...} answer to bad parameters), with values made
// from the variable's kind, the hour and the place, so that every recording
// is the same. Nothing leaves loopback.

// meteoStart is the first forecast day: a fixed date keeps recordings equal.
var meteoStart = time.Date(2026, 1, 26, 0, 0, 0, 0, time.UTC)

// meteoPlaces answers geocoding searches.
var meteoPlaces = []map[string]any{
	{"id": 2950159, "name": "Berlin", "latitude": 52.52437, "longitude": 13.41053, "elevation": 74.0, "feature_code": "PPLC", "country_code": "DE", "admin1_id": 2950157, "timezone": "Europe/Berlin", "population": 3426354, "country_id": 2921044, "country": "Germany", "admin1": "Land Berlin"},
	{"id": 5083330, "name": "Berlin", "latitude": 44.46867, "longitude": -71.18508, "elevation": 311.0, "feature_code": "PPL", "country_code": "US", "admin1_id": 5090174, "admin2_id": 5084973, "timezone": "America/New_York", "population": 9367, "postcodes": []string{"03570"}, "country_id": 6252001, "country": "United States", "admin1": "New Hampshire", "admin2": "Coos"},
	{"id": 5245497, "name": "Berlin", "latitude": 43.96804, "longitude": -88.94345, "elevation": 244.0, "feature_code": "PPL", "country_code": "US", "admin1_id": 5279468, "admin2_id": 5253710, "timezone": "America/Chicago", "population": 5420, "postcodes": []string{"54923"}, "country_id": 6252001, "country": "United States", "admin1": "Wisconsin", "admin2": "Green Lake"},
	{"id": 2267057, "name": "Lisbon", "latitude": 38.71667, "longitude": -9.13333, "elevation": 45.0, "feature_code": "PPLC", "country_code": "PT", "admin1_id": 2267056, "timezone": "Europe/Lisbon", "population": 517802, "country_id": 2264397, "country": "Portugal", "admin1": "Lisbon"},
	{"id": 3143244, "name": "Oslo", "latitude": 59.91273, "longitude": 10.74609, "elevation": 26.0, "feature_code": "PPLC", "country_code": "NO", "admin1_id": 3143242, "timezone": "Europe/Oslo", "population": 580000, "country_id": 3144096, "country": "Norway", "admin1": "Oslo"},
	{"id": 2988507, "name": "Paris", "latitude": 48.85341, "longitude": 2.3488, "elevation": 42.0, "feature_code": "PPLC", "country_code": "FR", "admin1_id": 3012874, "timezone": "Europe/Paris", "population": 2138551, "country_id": 3017382, "country": "France", "admin1": "Île-de-France"},
	{"id": 3413829, "name": "Reykjavík", "latitude": 64.13548, "longitude": -21.89541, "elevation": 18.0, "feature_code": "PPLC", "country_code": "IS", "admin1_id": 3426182, "timezone": "Atlantic/Reykjavik", "population": 118918, "country_id": 2629691, "country": "Iceland", "admin1": "Capital Region"},
}

// startMeteo serves the stand-in on loopback.
func (w *world) startMeteo() error {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	port := l.Addr().(*net.TCPAddr).Port
	w.ports[port] = 8081
	w.meteo = fmt.Sprintf("http://127.0.0.1:%d", port)
	srv := &http.Server{Handler: http.HandlerFunc(meteoHandler), ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = srv.Serve(l) }()
	w.stops = append(w.stops, func() { _ = srv.Close() })
	return nil
}

// meteoEnv points every Open-Meteo host the weather server knows at the stand-in.
func (w *world) meteoEnv() []string {
	var env []string
	for _, k := range []string{"", "AIR_QUALITY_", "MARINE_", "ARCHIVE_", "SEASONAL_", "ENSEMBLE_", "GEOCODING_", "FLOOD_", "CLIMATE_"} {
		env = append(env, "OPEN_METEO_"+k+"API_URL="+w.meteo)
	}
	return env
}

func meteoHandler(rw http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	answer := func(status int, v any) {
		rw.Header().Set("Content-Type", "application/json; charset=utf-8")
		rw.WriteHeader(status)
		_ = json.NewEncoder(rw).Encode(v)
	}
	fail := func(reason string) { answer(http.StatusBadRequest, map[string]any{"error": true, "reason": reason}) }
	switch r.URL.Path {
	case "/v1/search":
		name := strings.ToLower(strings.TrimSpace(q.Get("name")))
		if len(name) < 2 {
			fail("Parameter 'name' must be at least 2 characters")
			return
		}
		count := 10
		if c, err := strconv.Atoi(q.Get("count")); err == nil && c > 0 && c <= 100 {
			count = c
		}
		var found []map[string]any
		for _, p := range meteoPlaces {
			if strings.HasPrefix(strings.ToLower(p["name"].(string)), name) && len(found) < count {
				found = append(found, p)
			}
		}
		out := map[string]any{"generationtime_ms": 0.61}
		if len(found) > 0 {
			out["results"] = found
		}
		answer(http.StatusOK, out)
		return
	case "/v1/elevation":
		lats, lons, reason := meteoCoords(q)
		if reason != "" {
			fail(reason)
			return
		}
		var el []float64
		for i := range lats {
			el = append(el, meteoElevation(lats[i], lons[i]))
		}
		answer(http.StatusOK, map[string]any{"elevation": el})
		return
	}
	if !strings.HasPrefix(r.URL.Path, "/v1/") {
		answer(http.StatusNotFound, map[string]any{"error": true, "reason": "Not Found"})
		return
	}
	lats, lons, reason := meteoCoords(q)
	if reason != "" {
		fail(reason)
		return
	}
	var outs []map[string]any
	for i := range lats {
		o, reason := meteoSeries(q, lats[i], lons[i])
		if reason != "" {
			fail(reason)
			return
		}
		outs = append(outs, o)
	}
	if len(outs) == 1 {
		answer(http.StatusOK, outs[0])
		return
	}
	answer(http.StatusOK, outs)
}

func meteoCoords(q url.Values) (lats, lons []float64, reason string) {
	ls, ms := strings.Split(q.Get("latitude"), ","), strings.Split(q.Get("longitude"), ",")
	if q.Get("latitude") == "" || q.Get("longitude") == "" {
		return nil, nil, "Parameter 'latitude' and 'longitude' must be set"
	}
	if len(ls) != len(ms) {
		return nil, nil, "Parameter 'latitude' and 'longitude' must have the same number of elements"
	}
	for i := range ls {
		la, err1 := strconv.ParseFloat(strings.TrimSpace(ls[i]), 64)
		lo, err2 := strconv.ParseFloat(strings.TrimSpace(ms[i]), 64)
		if err1 != nil || err2 != nil {
			return nil, nil, fmt.Sprintf("Cannot initialize Float from invalid String value %s", ls[i])
		}
		if la < -90 || la > 90 {
			return nil, nil, fmt.Sprintf("Latitude must be in range of -90 to 90°. Given: %.1f.", la)
		}
		if lo < -180 || lo > 180 {
			return nil, nil, fmt.Sprintf("Longitude must be in range of -180 to 180°. Given: %.1f.", lo)
		}
		lats, lons = append(lats, la), append(lons, lo)
	}
	return lats, lons, ""
}

func meteoElevation(lat, lon float64) float64 {
	for _, p := range meteoPlaces {
		if math.Abs(p["latitude"].(float64)-lat) < 0.2 && math.Abs(p["longitude"].(float64)-lon) < 0.2 {
			return p["elevation"].(float64)
		}
	}
	return math.Round(math.Abs(math.Sin(lat)*math.Cos(lon))*400) + 5
}

// meteoUnit is the unit Open-Meteo names for a variable, and whether the
// variable is one it knows.
func meteoUnit(v string) (string, bool) {
	rules := []struct{ part, unit string }{
		{"weather_code", "wmo code"}, {"weathercode", "wmo code"}, {"is_day", ""}, {"sunrise", "iso8601"}, {"sunset", "iso8601"},
		{"probability", "%"}, {"temperature", "°C"}, {"dew_point", "°C"}, {"humidity", "%"}, {"cloud_cover", "%"},
		{"snowfall", "cm"}, {"snow_depth", "m"}, {"precipitation_hours", "h"}, {"precipitation", "mm"}, {"rain", "mm"}, {"showers", "mm"},
		{"pressure", "hPa"}, {"wind_speed", "km/h"}, {"wind_gusts", "km/h"}, {"direction", "°"}, {"visibility", "m"},
		{"uv_index", ""}, {"duration", "s"}, {"radiation", "W/m²"}, {"et0", "mm"}, {"evapotranspiration", "mm"},
		{"european_aqi", "EAQI"}, {"us_aqi", "USAQI"}, {"pm10", "μg/m³"}, {"pm2_5", "μg/m³"}, {"ozone", "μg/m³"},
		{"nitrogen_dioxide", "μg/m³"}, {"sulphur_dioxide", "μg/m³"}, {"carbon_monoxide", "μg/m³"}, {"dust", "μg/m³"}, {"pollen", "grains/m³"},
		{"wave_height", "m"}, {"wave_period", "s"}, {"current_velocity", "km/h"}, {"sea_surface_temperature", "°C"},
		{"river_discharge", "m³/s"}, {"soil_moisture", "m³/m³"}, {"cape", "J/kg"}, {"freezing_level", "m"},
	}
	for _, r := range rules {
		if strings.Contains(v, r.part) {
			return r.unit, true
		}
	}
	return "", false
}

// meteoValue makes a plausible value for variable v at step i (hours from the
// start, or days when daily), at a place.
func meteoValue(v string, i int, daily bool, lat, lon float64, day time.Time) any {
	h := float64(i % 24)
	d := float64(i / 24)
	if daily {
		h, d = 14, float64(i)
	}
	diurnal := math.Sin(2 * math.Pi * (h - 9) / 24)
	place := float64(int(math.Abs(lat*7+lon*3))%7) - 3
	trend := math.Sin(d/2.3) * 2
	r1 := func(x float64) float64 { return math.Round(x*10) / 10 }
	codes := []int{3, 3, 61, 2, 1, 0, 45, 80, 71, 2}
	switch {
	case strings.Contains(v, "sunrise"):
		return day.Format("2006-01-02") + "T07:" + fmt.Sprintf("%02d", 58-int(d)%20)
	case strings.Contains(v, "sunset"):
		return day.Format("2006-01-02") + "T16:" + fmt.Sprintf("%02d", 38+int(d)%20)
	case strings.Contains(v, "weather_code") || strings.Contains(v, "weathercode"):
		return codes[(i*7+int(place+3))%len(codes)]
	case strings.Contains(v, "is_day"):
		if h >= 8 && h < 17 {
			return 1
		}
		return 0
	case strings.Contains(v, "probability"):
		return (i*37 + 11) % 90
	case strings.Contains(v, "temperature") || strings.Contains(v, "dew_point"):
		base := 3 + place + trend + 4*diurnal
		switch {
		case strings.HasSuffix(v, "_max"):
			base = 7 + place + trend
		case strings.HasSuffix(v, "_min"):
			base = -1 + place + trend
		case strings.Contains(v, "dew_point"):
			base -= 4
		case strings.Contains(v, "soil"):
			base = 2 + place/2
		case strings.Contains(v, "sea_surface"):
			base = 9 + place/3
		}
		return r1(base)
	case strings.Contains(v, "humidity"):
		return int(80 - 15*diurnal)
	case strings.Contains(v, "cloud_cover"):
		return int(60 + 35*math.Sin(float64(i)/5))
	case strings.Contains(v, "snowfall"), strings.Contains(v, "snow_depth"):
		if int(d)%5 == 3 {
			return 0.7
		}
		return 0.0
	case strings.Contains(v, "precipitation_hours"):
		return float64((i * 3) % 7)
	case strings.Contains(v, "precipitation"), strings.Contains(v, "rain"), strings.Contains(v, "showers"):
		if daily {
			return r1(math.Max(0, 2.4*math.Sin(d*1.7)+0.6))
		}
		if int(d)%2 == 1 && h >= 14 && h <= 17 {
			return r1(0.3 + 0.1*float64(int(h)%3))
		}
		return 0.0
	case strings.Contains(v, "pressure"):
		return r1(1012 + 6*math.Sin(float64(i)/30) - place)
	case strings.Contains(v, "direction"):
		return int(240+30*math.Sin(float64(i)/9)) % 360
	case strings.Contains(v, "wind_gusts"):
		return r1(26 + 9*math.Sin(float64(i)/6))
	case strings.Contains(v, "wind_speed"), strings.Contains(v, "current_velocity"):
		return r1(12 + 6*math.Sin(float64(i)/6) + place)
	case strings.Contains(v, "visibility"):
		return 24000 - (i%5)*1400
	case strings.Contains(v, "uv_index"):
		if daily {
			return r1(1.1 + 0.1*float64(i%3))
		}
		return r1(math.Max(0, 1.2*diurnal))
	case strings.Contains(v, "sunshine_duration"):
		return r1(math.Max(0, 10800+7200*math.Sin(d)))
	case strings.Contains(v, "daylight_duration"):
		return r1(31200 + 180*d)
	case strings.Contains(v, "radiation"):
		return r1(math.Max(0, 180*diurnal))
	case strings.Contains(v, "et0"), strings.Contains(v, "evapotranspiration"):
		return r1(0.4 + 0.1*math.Sin(d))
	case strings.Contains(v, "aqi"):
		return int(28 + 12*math.Sin(float64(i)/7) + place)
	case strings.Contains(v, "pm2_5"):
		return r1(8.5 + 3*math.Sin(float64(i)/7))
	case strings.Contains(v, "pm10"):
		return r1(14 + 4*math.Sin(float64(i)/7))
	case strings.Contains(v, "ozone"), strings.Contains(v, "nitrogen"), strings.Contains(v, "sulphur"), strings.Contains(v, "dust"):
		return r1(40 + 15*diurnal)
	case strings.Contains(v, "carbon_monoxide"):
		return r1(210 + 30*diurnal)
	case strings.Contains(v, "pollen"):
		return 0.0
	case strings.Contains(v, "wave_height"):
		return r1(1.4 + 0.5*math.Sin(float64(i)/8))
	case strings.Contains(v, "wave_period"):
		return r1(8 + 2*math.Sin(float64(i)/8))
	case strings.Contains(v, "river_discharge"):
		return r1(312 + 40*math.Sin(d/3))
	case strings.Contains(v, "soil_moisture"):
		return 0.31
	}
	return r1(10 + 3*diurnal)
}

// meteoSeries answers a forecast-like request: one block per resolution asked for.
func meteoSeries(q url.Values, lat, lon float64) (map[string]any, string) {
	start, days := meteoStart, 7
	if fd, err := strconv.Atoi(q.Get("forecast_days")); err == nil {
		if fd < 0 || fd > 16 {
			return nil, fmt.Sprintf("Forecast days is invalid. Allowed range 0 to 16. Given %d.", fd)
		}
		days = fd
	}
	if pd, err := strconv.Atoi(q.Get("past_days")); err == nil && pd > 0 {
		start = start.AddDate(0, 0, -pd)
		days += pd
	}
	if s, e := q.Get("start_date"), q.Get("end_date"); s != "" || e != "" {
		ts, err1 := time.Parse("2006-01-02", s)
		te, err2 := time.Parse("2006-01-02", e)
		if err1 != nil || err2 != nil {
			return nil, "Parameter 'start_date' and 'end_date' must be set and in the format yyyy-mm-dd"
		}
		if te.Before(ts) {
			return nil, "End-date must be larger or equal than start-date"
		}
		start, days = ts, int(te.Sub(ts).Hours()/24)+1
		if days > 400 {
			days = 400
		}
	}
	tz, offset, abbr := "GMT", 0, "GMT"
	if t := q.Get("timezone"); t != "" && t != "GMT" && t != "UTC" {
		tz, offset, abbr = t, 3600, "GMT+1"
		if t == "auto" {
			tz = "Europe/Berlin"
		}
	}
	out := map[string]any{
		"latitude": math.Round(lat*1000) / 1000, "longitude": math.Round(lon*1000) / 1000, "generationtime_ms": 0.0741,
		"utc_offset_seconds": offset, "timezone": tz, "timezone_abbreviation": abbr, "elevation": meteoElevation(lat, lon),
	}
	for _, res := range []string{"current", "minutely_15", "hourly", "six_hourly", "daily"} {
		vars := q.Get(res)
		if vars == "" {
			continue
		}
		units := map[string]any{}
		block := map[string]any{}
		var names []string
		for _, v := range strings.Split(vars, ",") {
			v = strings.TrimSpace(v)
			u, ok := meteoUnit(v)
			if !ok {
				return nil, fmt.Sprintf("Cannot initialize %sVariable from invalid String value %s for key %s", map[bool]string{true: "Daily", false: "Surface"}[res == "daily"], v, res)
			}
			units[v] = u
			names = append(names, v)
		}
		switch res {
		case "current":
			units["time"], units["interval"] = "iso8601", "seconds"
			block["time"], block["interval"] = meteoStart.Add(12*time.Hour).Format("2006-01-02T15:04"), 900
			for _, v := range names {
				block[v] = meteoValue(v, 12, false, lat, lon, meteoStart)
			}
		default:
			step, n := time.Hour, days*24
			switch res {
			case "minutely_15":
				step, n = 15*time.Minute, 24*4
			case "six_hourly":
				step, n = 6*time.Hour, days*4
			case "daily":
				step, n = 24*time.Hour, days
			}
			layout := "2006-01-02T15:04"
			if res == "daily" {
				layout = "2006-01-02"
			}
			units["time"] = "iso8601"
			times := make([]string, n)
			cols := map[string][]any{}
			for i := 0; i < n; i++ {
				t := start.Add(time.Duration(i) * step)
				times[i] = t.Format(layout)
				hourIndex := int(t.Sub(start).Hours())
				dayIndex := int(t.Sub(start).Hours() / 24)
				for _, v := range names {
					if res == "daily" {
						cols[v] = append(cols[v], meteoValue(v, dayIndex, true, lat, lon, t))
					} else {
						cols[v] = append(cols[v], meteoValue(v, hourIndex, false, lat, lon, t))
					}
				}
			}
			block["time"] = times
			for v, c := range cols {
				block[v] = c
			}
		}
		out[res+"_units"] = units
		out[res] = block
	}
	return out, ""
}
