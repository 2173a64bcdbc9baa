package engine

import (
	"testing"

	"github.com/genui-dev/genui/engine/contract"
)

// TestTaskStatusesEndAtTheFirstFinal: a call's task statuses come from two
// places (the upstream's notifications and genui's own tasks/get polls),
// so a status read before the task ended can arrive after its final one;
// watchers never see a "working" after "completed" (the preview's status
// line and the conformance test read the last one).
func TestTaskStatusesEndAtTheFirstFinal(t *testing.T) {
	e := &Engine{hub: newEventHub()}
	var got []string
	e.hub.onEvent(func(ev contract.Event) {
		if ts, ok := ev.Detail.(*contract.TaskStatus); ok {
			got = append(got, ts.Task.Status+": "+ts.Task.StatusMessage)
		}
	})
	c := &surfaceCall{id: "task-1", tool: "research"}
	for _, s := range []contract.Task{
		{TaskID: "t", Status: contract.TaskWorking, StatusMessage: "Synthesizing"},
		{TaskID: "t", Status: contract.TaskCompleted, StatusMessage: "Generating report"},
		{TaskID: "t", Status: contract.TaskWorking, StatusMessage: "Generating report"}, // a poll read before the end
	} {
		e.publishTaskStatus(c, s)
	}
	want := []string{"working: Synthesizing", "completed: Generating report"}
	if len(got) != len(want) || got[0] != want[0] || got[1] != want[1] {
		t.Fatalf("statuses %q, want %q", got, want)
	}
}
