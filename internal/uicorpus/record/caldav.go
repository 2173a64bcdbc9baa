package main

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"time"
)

// Radicale from Debian on loopback, for the calendar server: a user's work
// calendar (a weekly meeting, reviews, a release, a holiday, to-dos) and a
// personal one, written into its storage folder before it starts, each item
// in a file named by its UID, as CalDAV clients address them.

var calendarItems = map[string]string{
	"work/weekly-sync@acme.ics":    ics("VEVENT", "weekly-sync@acme", "DTSTART:20260105T100000Z\r\nDTEND:20260105T103000Z\r\nRRULE:FREQ=WEEKLY;BYDAY=MO;COUNT=12\r\nSUMMARY:Weekly sync\r\nDESCRIPTION:Orders export, billing v2, anything blocked.\r\nLOCATION:Room 2 / video\r\nCATEGORIES:meeting"),
	"work/billing-review@acme.ics": ics("VEVENT", "billing-review@acme", "DTSTART:20260128T140000Z\r\nDTEND:20260128T153000Z\r\nSUMMARY:Billing v2 design review\r\nDESCRIPTION:Event schema, retry policy, migration plan.\r\nLOCATION:Room 4\r\nORGANIZER;CN=Grace Hopper:mailto:grace@example.com\r\nATTENDEE;CN=Ada Lovelace;PARTSTAT=ACCEPTED:mailto:ada@example.com"),
	"work/release-0-2@acme.ics":    ics("VEVENT", "release-0-2@acme", "DTSTART:20260203T090000Z\r\nDTEND:20260203T100000Z\r\nSUMMARY:Release 0.2.0 (CSV export)\r\nDESCRIPTION:Tag, build for x86_64 and arm64, announce to finance."),
	"work/holiday-ada@acme.ics":    ics("VEVENT", "holiday-ada@acme", "DTSTART;VALUE=DATE:20260209\r\nDTEND;VALUE=DATE:20260214\r\nSUMMARY:Ada on holiday\r\nTRANSP:TRANSPARENT"),
	"work/todo-index@acme.ics":     ics("VTODO", "todo-index@acme", "SUMMARY:Add the index on orders(ordered_at)\r\nDUE:20260130T170000Z\r\nPRIORITY:1\r\nSTATUS:NEEDS-ACTION"),
	"work/todo-bom@acme.ics":       ics("VTODO", "todo-bom@acme", "SUMMARY:Ask finance whether the CSV needs a BOM\r\nDUE:20260127T120000Z\r\nPRIORITY:5\r\nSTATUS:COMPLETED\r\nCOMPLETED:20260126T101500Z\r\nPERCENT-COMPLETE:100"),
	"personal/dentist@home.ics":    ics("VEVENT", "dentist@home", "DTSTART:20260129T073000Z\r\nDTEND:20260129T081500Z\r\nSUMMARY:Dentist\r\nLOCATION:12 Harley Street"),
}

func ics(kind, uid, body string) string {
	return "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//Acme//Corpus//EN\r\nBEGIN:" + kind + "\r\nUID:" + uid + "\r\nDTSTAMP:20260120T090000Z\r\n" + body + "\r\nEND:" + kind + "\r\nEND:VCALENDAR\r\n"
}

// startCalDAV runs Debian's radicale (no authentication: any user name is
// accepted and owns its own calendars) on loopback.
func (w *world) startCalDAV() error {
	bin, err := exec.LookPath("radicale")
	if err != nil {
		return errors.New("radicale not found (apt-get install radicale)")
	}
	port, err := freePort()
	if err != nil {
		return err
	}
	dir := filepath.Join(w.root, "radicale")
	user := filepath.Join(dir, "collections", "collection-root", "ada")
	props := map[string]string{
		"work":     `{"C:calendar-description": "Team calendar of the orders service", "C:supported-calendar-component-set": "VEVENT,VTODO", "D:displayname": "Work", "ICAL:calendar-color": "#1f3a5fff", "tag": "VCALENDAR"}`,
		"personal": `{"C:supported-calendar-component-set": "VEVENT", "D:displayname": "Personal", "ICAL:calendar-color": "#2e7d32ff", "tag": "VCALENDAR"}`,
	}
	for name, p := range props {
		if err := os.MkdirAll(filepath.Join(user, name), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(user, name, ".Radicale.props"), []byte(p), 0o644); err != nil {
			return err
		}
	}
	for rel, body := range calendarItems {
		if err := os.WriteFile(filepath.Join(user, filepath.FromSlash(rel)), []byte(body), 0o644); err != nil {
			return err
		}
	}
	cfg := fmt.Sprintf("[server]\nhosts = 127.0.0.1:%d\n[auth]\ntype = none\n[rights]\ntype = owner_only\n[storage]\nfilesystem_folder = %s\n[logging]\nlevel = warning\n",
		port, filepath.Join(dir, "collections"))
	if err := os.WriteFile(filepath.Join(dir, "config"), []byte(cfg), 0o644); err != nil {
		return err
	}
	cmd := exec.Command(bin, "--config", filepath.Join(dir, "config"))
	cmd.Dir = dir
	if err := w.startService("radicale", cmd, 30*time.Second, tcpOpen(port)); err != nil {
		return err
	}
	w.ports[port] = 5232
	w.caldav = fmt.Sprintf("http://127.0.0.1:%d", port)
	return nil
}
