package engine

import (
	"context"
	"encoding/json"
	"time"

	"github.com/genui-dev/genui/engine/contract"
	"github.com/genui-dev/genui/engine/jsonrpc"
)

// Task-augmented calls (MCP 2025-11-25 tasks) for genui's own surfaces:
// tools/call with a task field answers with the created task at once;
// tasks/result (which the upstream holds until the task is done, and on
// which it sends the task's own requests, elicitation for input_required)
// fetches the result while tasks/get follows the status; cancelling the
// call sends tasks/cancel.

// Bounds of a task-augmented call.
var (
	// taskTTL is how long genui asks the upstream to keep a task.
	taskTTL = 10 * time.Minute
	// taskPollDefault, taskPollMin, taskPollMax bound the tasks/get period
	// (the task's pollInterval when it gives one).
	taskPollDefault = time.Second
	taskPollMin     = 200 * time.Millisecond
	taskPollMax     = 5 * time.Second
	// taskCancelWait bounds tasks/cancel after the call was cancelled.
	taskCancelWait = 2 * time.Second
)

// callAsTask runs a task-augmented tools/call (params carry the task
// field) and returns the task's result and its last status.
func (e *Engine) callAsTask(ctx context.Context, c *surfaceCall, params json.RawMessage) (json.RawMessage, *contract.Task, error) {
	created, err := e.relay.request(ctx, "tools/call", params)
	if err != nil {
		return nil, nil, err
	}
	var ct struct {
		Task *contract.Task `json:"task"`
	}
	if err := json.Unmarshal(created, &ct); err != nil || ct.Task == nil || ct.Task.TaskID == "" {
		// The upstream answered at once instead of creating a task.
		return created, nil, nil
	}
	task := *ct.Task
	e.calls.setTask(c, task.TaskID)
	e.publishTaskStatus(c, task)
	idParams, _ := json.Marshal(map[string]string{"taskId": task.TaskID})

	type answer struct {
		res json.RawMessage
		err error
	}
	got := make(chan answer, 1)
	go func() {
		res, err := e.relay.request(ctx, "tasks/result", idParams)
		got <- answer{res, err}
	}()
	poll := time.NewTimer(pollInterval(task))
	defer poll.Stop()
	for {
		select {
		case a := <-got:
			if a.err != nil {
				if ctx.Err() != nil {
					return nil, &task, e.cancelTask(c, idParams, &task, a.err)
				}
				return nil, &task, a.err
			}
			// The final status (completed, failed, cancelled) for watchers.
			if st, ok := e.taskGet(ctx, idParams); ok {
				task = e.noteTask(c, task, st)
			}
			return a.res, &task, nil
		case <-poll.C:
			if st, ok := e.taskGet(ctx, idParams); ok {
				task = e.noteTask(c, task, st)
			}
			poll.Reset(pollInterval(task))
		case <-ctx.Done():
			return nil, &task, e.cancelTask(c, idParams, &task, ctx.Err())
		}
	}
}

// noteTask publishes a task status that differs from the last one.
func (e *Engine) noteTask(c *surfaceCall, last, now contract.Task) contract.Task {
	if now.Status != last.Status || now.StatusMessage != last.StatusMessage {
		e.publishTaskStatus(c, now)
	}
	return now
}

// taskGet asks for a task's status (bounded); false when it could not.
func (e *Engine) taskGet(ctx context.Context, idParams json.RawMessage) (contract.Task, bool) {
	gctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	res, err := e.relay.request(gctx, "tasks/get", idParams)
	if err != nil {
		return contract.Task{}, false
	}
	var t contract.Task
	if json.Unmarshal(res, &t) != nil || t.TaskID == "" {
		return contract.Task{}, false
	}
	return t, true
}

// cancelTask tells the upstream to cancel the task of a cancelled call
// (bounded by taskCancelWait: the call ends right after) and returns err.
func (e *Engine) cancelTask(c *surfaceCall, idParams json.RawMessage, task *contract.Task, err error) error {
	cctx, cancel := context.WithTimeout(context.Background(), taskCancelWait)
	defer cancel()
	res, cerr := e.relay.request(cctx, "tasks/cancel", idParams)
	if cerr != nil {
		if je := jsonrpc.AsError(cerr); je != nil {
			e.log.Info("tasks/cancel refused", "task", task.TaskID, "err", je.Message)
		}
		return err
	}
	var t contract.Task
	if json.Unmarshal(res, &t) == nil && t.TaskID != "" {
		*task = e.noteTask(c, *task, t)
	}
	return err
}

// pollInterval is how long to wait before the next tasks/get.
func pollInterval(t contract.Task) time.Duration {
	d := taskPollDefault
	if t.PollInterval != nil && *t.PollInterval > 0 {
		d = time.Duration(*t.PollInterval) * time.Millisecond
	}
	return min(max(d, taskPollMin), taskPollMax)
}
