package demo

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

const (
	defaultCells = 4
	maxCells     = 16
	batterySteps = 5
	stepInterval = 50 * time.Millisecond
)

// Job statuses.
const (
	jobRunning   = "running"
	jobDone      = "done"
	jobCancelled = "cancelled"
)

type cellResult struct {
	Cell                int     `json:"cell"`
	VoltageV            float64 `json:"voltage_v"`
	CapacityMAh         int     `json:"capacity_mah"`
	InternalResistanceM float64 `json:"internal_resistance_mohm"`
	Health              string  `json:"health"`
}

// batteryJob is a simulated battery test. Fields are guarded by state.mu.
type batteryJob struct {
	id      string
	cells   int
	step    int
	status  string
	results []cellResult
}

// jobStatus is what get_battery_status returns.
type jobStatus struct {
	JobID   string       `json:"job_id"`
	Status  string       `json:"status"`
	Cells   int          `json:"cells"`
	Step    int          `json:"step"`
	Steps   int          `json:"steps"`
	Results []cellResult `json:"results"`
}

// jobOutcome is what run_battery returns.
type jobOutcome struct {
	JobID   string       `json:"job_id"`
	Status  string       `json:"status"`
	Cells   int          `json:"cells"`
	Results []cellResult `json:"results"`
}

// cellFor is the deterministic measurement of cell i (1-based) in a pack of
// n cells.
func cellFor(n, i int) cellResult {
	r := newRNG(hashString(fmt.Sprintf("battery:%d:%d", n, i)))
	capacity := 2600 + r.intn(900)
	health := "good"
	switch {
	case capacity < 2800:
		health = "replace"
	case capacity < 3000:
		health = "fair"
	}
	return cellResult{
		Cell:                i,
		VoltageV:            float64(3600+r.intn(600)) / 1000,
		CapacityMAh:         capacity,
		InternalResistanceM: r.between(18, 60),
		Health:              health,
	}
}

func (st *state) newJob(cells int) *batteryJob {
	st.mu.Lock()
	defer st.mu.Unlock()
	st.nextJob++
	j := &batteryJob{
		id:      fmt.Sprintf("battery-%04d", st.nextJob),
		cells:   cells,
		status:  jobRunning,
		results: []cellResult{},
	}
	st.jobs[j.id] = j
	return j
}

func (st *state) snapshot(j *batteryJob) jobStatus {
	st.mu.Lock()
	defer st.mu.Unlock()
	return jobStatus{
		JobID:   j.id,
		Status:  j.status,
		Cells:   j.cells,
		Step:    j.step,
		Steps:   batterySteps,
		Results: append([]cellResult{}, j.results...),
	}
}

// advance records step s of j: the cells tested so far get their results.
func (st *state) advance(j *batteryJob, s int) (tested int) {
	st.mu.Lock()
	defer st.mu.Unlock()
	tested = (j.cells*s + batterySteps - 1) / batterySteps
	for i := len(j.results) + 1; i <= tested; i++ {
		j.results = append(j.results, cellFor(j.cells, i))
	}
	j.step = s
	if s == batterySteps {
		j.status = jobDone
	}
	return tested
}

func (st *state) setStatus(j *batteryJob, status string) {
	st.mu.Lock()
	defer st.mu.Unlock()
	j.status = status
}

func runBatteryTool() mcp.Tool {
	const title = "Run battery test"
	return mcp.NewTool("run_battery",
		mcp.WithToolTitle(title),
		mcp.WithDescription("Start a simulated battery test and wait for it to finish (about a quarter of a second, in 5 steps). "+
			"Sends notifications/progress for each step when the request carries _meta.progressToken. "+
			"Returns the job id and per-cell measurements; results are deterministic for a given number of cells."),
		mcp.WithInteger("cells",
			mcp.Description("Number of cells in the pack to test, 1 to 16."),
			mcp.Min(1), mcp.Max(maxCells), mcp.DefaultNumber(defaultCells),
		),
		mcp.WithRawOutputSchema(json.RawMessage(`{
			"type": "object",
			"properties": {
				"job_id": {"type": "string", "description": "Id to pass to get_battery_status."},
				"status": {"type": "string", "enum": ["running", "done", "cancelled"]},
				"cells": {"type": "integer", "description": "Number of cells tested."},
				"results": {"type": "array", "description": "One entry per cell.", "items": `+cellSchema+`}
			},
			"required": ["job_id", "status", "cells", "results"]
		}`)),
		mcp.WithToolAnnotation(annotations(title, false, false, false)),
	)
}

const cellSchema = `{
	"type": "object",
	"properties": {
		"cell": {"type": "integer", "minimum": 1, "description": "Cell number, from 1."},
		"voltage_v": {"type": "number", "description": "Resting voltage in volts."},
		"capacity_mah": {"type": "integer", "description": "Measured capacity in mAh."},
		"internal_resistance_mohm": {"type": "number", "description": "Internal resistance in milliohms."},
		"health": {"type": "string", "enum": ["good", "fair", "replace"]}
	},
	"required": ["cell", "voltage_v", "capacity_mah", "internal_resistance_mohm", "health"]
}`

func batteryStatusTool() mcp.Tool {
	const title = "Battery test status"
	t := mcp.NewTool("get_battery_status",
		mcp.WithToolTitle(title),
		mcp.WithDescription("Status of a battery test started with run_battery: step reached, status and the cell results so far. For the app's UI; not offered to the model."),
		mcp.WithString("job_id",
			mcp.Required(),
			mcp.Description("Job id returned by run_battery, e.g. \"battery-0001\"."),
		),
		mcp.WithRawOutputSchema(json.RawMessage(`{
			"type": "object",
			"properties": {
				"job_id": {"type": "string"},
				"status": {"type": "string", "enum": ["running", "done", "cancelled"]},
				"cells": {"type": "integer", "description": "Number of cells in the pack."},
				"step": {"type": "integer", "description": "Steps completed so far."},
				"steps": {"type": "integer", "description": "Total number of steps."},
				"results": {"type": "array", "description": "Results for the cells tested so far.", "items": `+cellSchema+`}
			},
			"required": ["job_id", "status", "cells", "step", "steps", "results"]
		}`)),
		mcp.WithToolAnnotation(annotations(title, true, false, true)),
	)
	t.Meta = visibility("app")
	return t
}

func (st *state) handleRunBattery(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	a, err := parseArgs(req)
	if err != nil {
		return toolError("%v", err), nil
	}
	cells, ok, err := a.integer("cells")
	if err != nil {
		return toolError("%v", err), nil
	}
	if !ok {
		cells = defaultCells
	}
	if cells < 1 || cells > maxCells {
		return toolError("cells must be between 1 and %d, got %d", maxCells, cells), nil
	}

	var token mcp.ProgressToken
	if req.Params.Meta != nil {
		token = req.Params.Meta.ProgressToken
	}
	srv := server.ServerFromContext(ctx)

	job := st.newJob(cells)
	timer := time.NewTimer(stepInterval)
	defer timer.Stop()
	for s := 1; s <= batterySteps; s++ {
		select {
		case <-ctx.Done():
			st.setStatus(job, jobCancelled)
			return toolError("battery test %s cancelled at step %d of %d", job.id, s-1, batterySteps), nil
		case <-timer.C:
		}
		tested := st.advance(job, s)
		if token != nil && srv != nil {
			// Best effort: a client that stops reading only loses progress.
			_ = srv.SendNotificationToClient(ctx, string(mcp.MethodNotificationProgress), map[string]any{
				"progressToken": token,
				"progress":      s,
				"total":         batterySteps,
				"message":       fmt.Sprintf("Step %d/%d: tested %d of %d cells", s, batterySteps, tested, cells),
			})
		}
		if s < batterySteps {
			timer.Reset(stepInterval)
		}
	}
	snap := st.snapshot(job)
	return structuredResult(jobOutcome{JobID: snap.JobID, Status: snap.Status, Cells: snap.Cells, Results: snap.Results})
}

func (st *state) handleBatteryStatus(_ context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	a, err := parseArgs(req)
	if err != nil {
		return toolError("%v", err), nil
	}
	id, ok, err := a.str("job_id")
	if err != nil {
		return toolError("%v", err), nil
	}
	if !ok || id == "" {
		return toolError("job_id is required; run_battery returns one"), nil
	}
	st.mu.Lock()
	job := st.jobs[id]
	st.mu.Unlock()
	if job == nil {
		return toolError("unknown job_id %q; run_battery returns job ids like \"battery-0001\"", id), nil
	}
	return structuredResult(st.snapshot(job))
}
