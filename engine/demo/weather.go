package demo

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
)

// baseDate is "today" for all weather data; nothing reads the clock.
var baseDate = time.Date(2026, time.January, 15, 0, 0, 0, 0, time.UTC)

const (
	maxForecastDays     = 14
	defaultForecastDays = 7
)

var conditionsByBand = [][]string{
	{"snow", "light snow", "clear", "cloudy", "fog"},                    // below 0 °C
	{"cloudy", "overcast", "light rain", "fog", "clear", "drizzle"},     // 0..10 °C
	{"partly cloudy", "sunny", "light rain", "cloudy", "rain", "clear"}, // 10..20 °C
	{"sunny", "clear", "partly cloudy", "thunderstorms", "hazy"},        // 20 °C and up
}

func conditionsFor(r *rng, celsius float64) string {
	switch {
	case celsius < 0:
		return pick(r, conditionsByBand[0])
	case celsius < 10:
		return pick(r, conditionsByBand[1])
	case celsius < 20:
		return pick(r, conditionsByBand[2])
	default:
		return pick(r, conditionsByBand[3])
	}
}

func wet(conditions string) bool {
	for _, w := range []string{"rain", "drizzle", "snow", "thunderstorms"} {
		if strings.Contains(conditions, w) {
			return true
		}
	}
	return false
}

// convert turns a Celsius value into the requested units, one decimal.
func convert(celsius float64, units string) float64 {
	if units == unitsImperial {
		return round1(celsius*9/5 + 32)
	}
	return round1(celsius)
}

func unitSymbol(units string) string {
	if units == unitsImperial {
		return "°F"
	}
	return "°C"
}

// locationSeed keys all weather data: case and surrounding space do not
// change the weather.
func locationSeed(location string) uint64 {
	return hashString("weather:" + strings.ToLower(strings.TrimSpace(location)))
}

// baseCelsius is a location's typical temperature on the base date.
func baseCelsius(location string) float64 {
	return newRNG(locationSeed(location)).between(-12, 32)
}

type currentWeather struct {
	Location    string  `json:"location"`
	Temperature float64 `json:"temperature"`
	Units       string  `json:"units"`
	Conditions  string  `json:"conditions"`
	Humidity    int     `json:"humidity"`
	WindKph     float64 `json:"wind_kph"`
	ObservedAt  string  `json:"observed_at"`
}

func weatherFor(location, units string) currentWeather {
	r := newRNG(locationSeed(location) ^ 0xC0FFEE)
	c := baseCelsius(location)
	observed := baseDate.Add(time.Duration(8*60+r.intn(8*60)) * time.Minute)
	return currentWeather{
		Location:    location,
		Temperature: convert(c, units),
		Units:       units,
		Conditions:  conditionsFor(r, c),
		Humidity:    25 + r.intn(71),
		WindKph:     r.between(0, 45),
		ObservedAt:  observed.Format(time.RFC3339),
	}
}

func (w currentWeather) summary() string {
	return fmt.Sprintf("%s: %.1f%s, %s, humidity %d%%, wind %.1f km/h (observed %s)",
		w.Location, w.Temperature, unitSymbol(w.Units), w.Conditions, w.Humidity, w.WindKph, w.ObservedAt)
}

type forecastDay struct {
	Date            string  `json:"date"`
	High            float64 `json:"high"`
	Low             float64 `json:"low"`
	PrecipitationMM float64 `json:"precipitation_mm"`
	Conditions      string  `json:"conditions"`
}

type forecast struct {
	Location string        `json:"location"`
	Units    string        `json:"units"`
	Days     []forecastDay `json:"days"`
}

func forecastFor(location, units string, days int) forecast {
	base := baseCelsius(location)
	f := forecast{Location: location, Units: units, Days: make([]forecastDay, 0, days)}
	for i := range days {
		r := newRNG(locationSeed(location) ^ uint64(i+1)*0x9E3779B97F4A7C15)
		high := base + r.between(-4, 6)
		low := high - r.between(3, 10)
		cond := conditionsFor(r, (high+low)/2)
		precip := 0.0
		if wet(cond) {
			precip = r.between(0.5, 25)
		}
		f.Days = append(f.Days, forecastDay{
			Date:            baseDate.AddDate(0, 0, i).Format(time.DateOnly),
			High:            convert(high, units),
			Low:             convert(low, units),
			PrecipitationMM: precip,
			Conditions:      cond,
		})
	}
	return f
}

func unitsProperty() mcp.ToolOption {
	return mcp.WithString("units",
		mcp.Description("Unit system for temperatures: metric (°C) or imperial (°F). Defaults to the units chosen with set_units, initially metric."),
		mcp.Enum(unitsMetric, unitsImperial),
		mcp.DefaultString(unitsMetric),
	)
}

func locationProperty() mcp.ToolOption {
	return mcp.WithString("location",
		mcp.Required(),
		mcp.Description("Place name, e.g. \"Lisbon\" or \"Denver, CO\". Any text works; the demo derives its data from it."),
		mcp.MinLength(1),
	)
}

func weatherTool() mcp.Tool {
	const title = "Current weather"
	return mcp.NewTool("get_current_weather",
		mcp.WithToolTitle(title),
		mcp.WithDescription("Current conditions for a location: temperature, conditions, humidity and wind. Demo data, deterministic per location, observed on 2026-01-15."),
		locationProperty(),
		unitsProperty(),
		mcp.WithRawOutputSchema(json.RawMessage(`{
			"type": "object",
			"properties": {
				"location": {"type": "string", "description": "The location as requested."},
				"temperature": {"type": "number", "description": "Air temperature in the reported units."},
				"units": {"type": "string", "enum": ["metric", "imperial"]},
				"conditions": {"type": "string", "description": "Short description of the sky, e.g. \"light rain\"."},
				"humidity": {"type": "integer", "minimum": 0, "maximum": 100, "description": "Relative humidity in percent."},
				"wind_kph": {"type": "number", "minimum": 0, "description": "Wind speed in km/h, whatever the units."},
				"observed_at": {"type": "string", "format": "date-time", "description": "Observation time, RFC 3339."}
			},
			"required": ["location", "temperature", "units", "conditions", "humidity", "wind_kph", "observed_at"]
		}`)),
		mcp.WithToolAnnotation(annotations(title, true, false, true)),
	)
}

func forecastTool() mcp.Tool {
	const title = "Weather forecast"
	return mcp.NewTool("get_forecast",
		mcp.WithToolTitle(title),
		mcp.WithDescription("Daily forecast for a location starting 2026-01-15: high, low, precipitation and conditions, one entry per day. Demo data, deterministic per location."),
		locationProperty(),
		mcp.WithInteger("days",
			mcp.Description("Number of days to forecast, 1 to 14."),
			mcp.Min(1), mcp.Max(maxForecastDays), mcp.DefaultNumber(defaultForecastDays),
		),
		unitsProperty(),
		mcp.WithRawOutputSchema(json.RawMessage(`{
			"type": "object",
			"properties": {
				"location": {"type": "string", "description": "The location as requested."},
				"units": {"type": "string", "enum": ["metric", "imperial"], "description": "Units of high and low."},
				"days": {
					"type": "array",
					"description": "One entry per day, in date order.",
					"items": {
						"type": "object",
						"properties": {
							"date": {"type": "string", "format": "date", "description": "Day, YYYY-MM-DD."},
							"high": {"type": "number", "description": "Daily high temperature."},
							"low": {"type": "number", "description": "Daily low temperature."},
							"precipitation_mm": {"type": "number", "minimum": 0, "description": "Expected precipitation in mm."},
							"conditions": {"type": "string", "description": "Short description of the day's weather."}
						},
						"required": ["date", "high", "low", "precipitation_mm", "conditions"]
					}
				}
			},
			"required": ["location", "units", "days"]
		}`)),
		mcp.WithToolAnnotation(annotations(title, true, false, true)),
	)
}

// location reads and checks the required location argument.
func (a args) location() (string, error) {
	loc, ok, err := a.str("location")
	if err != nil {
		return "", err
	}
	loc = strings.TrimSpace(loc)
	if !ok || loc == "" {
		return "", fmt.Errorf("location is required, e.g. {\"location\": \"Lisbon\"}")
	}
	return loc, nil
}

func (st *state) handleWeather(_ context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	a, err := parseArgs(req)
	if err != nil {
		return toolError("%v", err), nil
	}
	loc, err := a.location()
	if err != nil {
		return toolError("%v", err), nil
	}
	units, err := a.units(st.defaultUnits())
	if err != nil {
		return toolError("%v", err), nil
	}
	w := weatherFor(loc, units)
	return mcp.NewToolResultStructured(w, w.summary()), nil
}

func (st *state) handleForecast(_ context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	a, err := parseArgs(req)
	if err != nil {
		return toolError("%v", err), nil
	}
	loc, err := a.location()
	if err != nil {
		return toolError("%v", err), nil
	}
	days, ok, err := a.integer("days")
	if err != nil {
		return toolError("%v", err), nil
	}
	if !ok {
		days = defaultForecastDays
	}
	if days < 1 || days > maxForecastDays {
		return toolError("days must be between 1 and %d, got %d", maxForecastDays, days), nil
	}
	units, err := a.units(st.defaultUnits())
	if err != nil {
		return toolError("%v", err), nil
	}
	return structuredResult(forecastFor(loc, units, days))
}
