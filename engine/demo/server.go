// Package demo is genui's built-in demo upstream: a plain MCP server with
// deterministic data and no network access. It exists so genui can be tried,
// and tested, without any third-party server. Its tools return the shapes
// real servers return: text and structuredContent, CKAN-style
// tables, progress notifications, images, and app-only or model-only tools
// marked by _meta.ui.visibility.
package demo

import (
	"sync"

	"github.com/mark3labs/mcp-go/server"
)

// Server identity reported in the initialize result.
const (
	ServerName    = "genui-demo"
	ServerVersion = "1.0.0"
)

// Units values accepted by the weather tools and set_units.
const (
	unitsMetric   = "metric"
	unitsImperial = "imperial"
)

// state is everything a demo server instance remembers between calls. Each
// NewServer call gets a fresh one; nothing is shared between instances.
type state struct {
	mu      sync.Mutex
	units   string                 // default units for the weather tools
	jobs    map[string]*batteryJob // run_battery jobs by id
	nextJob int                    // last job number handed out

	table []record // datastore_search rows; read-only after construction
	png   []byte   // get_tiny_image payload; read-only after construction
}

func newState() *state {
	return &state{
		units: unitsMetric,
		jobs:  make(map[string]*batteryJob),
		table: buildTable(),
		png:   buildTinyPNG(),
	}
}

// NewServer returns the demo MCP server (name "genui-demo", version "1.0.0")
// with the tools capability (listChanged) and fresh per-instance state.
func NewServer() *server.MCPServer {
	return newServer()
}

// newServer is NewServer with extra options; tests use it to switch on
// mcp-go's output schema validation.
func newServer(opts ...server.ServerOption) *server.MCPServer {
	st := newState()
	opts = append([]server.ServerOption{
		server.WithToolCapabilities(true),
		server.WithRecovery(),
	}, opts...)
	s := server.NewMCPServer(ServerName, ServerVersion, opts...)
	s.AddTools(st.tools()...)
	return s
}

// tools lists every demo tool bound to st.
func (st *state) tools() []server.ServerTool {
	return []server.ServerTool{
		{Tool: weatherTool(), Handler: st.handleWeather},
		{Tool: forecastTool(), Handler: st.handleForecast},
		{Tool: datastoreTool(), Handler: st.handleDatastoreSearch},
		{Tool: runBatteryTool(), Handler: st.handleRunBattery},
		{Tool: batteryStatusTool(), Handler: st.handleBatteryStatus},
		{Tool: resetTool(), Handler: st.handleReset},
		{Tool: setUnitsTool(), Handler: st.handleSetUnits},
		{Tool: tinyImageTool(), Handler: st.handleTinyImage},
	}
}

// defaultUnits returns the units set by set_units (metric until changed).
func (st *state) defaultUnits() string {
	st.mu.Lock()
	defer st.mu.Unlock()
	return st.units
}
