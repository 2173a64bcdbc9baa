package contract

import "time"

// Calls from genui's own surfaces (the TUI, the preview, the HTTP API) are
// MCP calls like a host's: each carries a progress token, reports progress
// as it arrives (EventCallProgress), can be cancelled (CancelCall, or the
// caller's context: the upstream gets notifications/cancelled and the call
// ends at once with CodeCancelled), and runs as a task when its tool asks
// for one (execution.taskSupport "required", or "optional" with
// CallRequest.Task): the task is created, followed (EventTaskStatus), its
// result fetched, and cancelling the call cancels the task (tasks/cancel).

// Task support a tool declares (its execution.taskSupport).
const (
	TaskSupportForbidden = "forbidden" // the default: never as a task
	TaskSupportOptional  = "optional"  // as a task when CallRequest.Task
	TaskSupportRequired  = "required"  // always as a task
)

// Task statuses (MCP 2025-11-25 tasks).
const (
	TaskWorking       = "working"
	TaskInputRequired = "input_required"
	TaskCompleted     = "completed"
	TaskFailed        = "failed"
	TaskCancelled     = "cancelled"
)

// Task is an upstream task as tasks/get reports it.
type Task struct {
	TaskID        string `json:"taskId"`
	Status        string `json:"status"`
	StatusMessage string `json:"statusMessage,omitempty"`
	CreatedAt     string `json:"createdAt,omitempty"`
	LastUpdatedAt string `json:"lastUpdatedAt,omitempty"`
	// TTL and PollInterval are in milliseconds, as the upstream sent them.
	TTL          *int64 `json:"ttl,omitempty"`
	PollInterval *int64 `json:"pollInterval,omitempty"`
}

// CallStarted is the detail of EventCallStarted: a call from one of
// genui's surfaces went upstream (Event.Tool is the tool).
type CallStarted struct {
	CallID string `json:"callId"`
	Source string `json:"source"`
	// Task is true when the call runs as a task.
	Task bool `json:"task,omitempty"`
}

// CallProgress is the detail of EventCallProgress: the upstream's
// notifications/progress for a call from genui's surfaces.
type CallProgress struct {
	CallID   string   `json:"callId"`
	Progress float64  `json:"progress"`
	Total    *float64 `json:"total,omitempty"`
	Message  string   `json:"message,omitempty"`
}

// CallFinished is the detail of EventCallFinished.
type CallFinished struct {
	CallID  string `json:"callId"`
	IsError bool   `json:"isError,omitempty"`
	// Cancelled: the call was cancelled (the upstream was told).
	Cancelled bool `json:"cancelled,omitempty"`
	// Error is why the call failed (no result), "" when it has a result.
	Error    string        `json:"error,omitempty"`
	Duration time.Duration `json:"duration"`
}

// TaskStatus is the detail of EventTaskStatus: a task-augmented call's task
// was created or changed status.
type TaskStatus struct {
	CallID string `json:"callId"`
	Task   Task   `json:"task"`
}
