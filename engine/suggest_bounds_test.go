package engine

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/genui-dev/genui/engine/contract"
	"github.com/genui-dev/genui/engine/suggest"
)

// TestUnknownHugeToolNameIsCheapAndNotEchoed: a 1 MiB unknown name
// against 5,017 tools gets its error at once (close-match suggestions
// are bounded: the attack took 45 s of CPU) and the error does not carry
// the name back.
func TestUnknownHugeToolNameIsCheapAndNotEchoed(t *testing.T) {
	names := make([]string, 5017)
	for i := range names {
		names[i] = fmt.Sprintf("tool_%04d_%s", i, strings.Repeat("x", i%40))
	}
	e := startEngine(t, newListUpstream(names...), nil)
	huge := strings.Repeat("tool_0001_", 1<<20/10)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	_, err := e.Inspect(ctx, huge)
	ae := contract.AsError(err)
	if ae.Code != contract.CodeUnknownTool {
		t.Fatalf("err %v, want unknown tool", err)
	}
	// The cost bound, by structure rather than a stopwatch: a name longer
	// than suggest.MaxName is compared with nothing, so it gets no
	// suggestions.
	if len(huge) <= suggest.MaxName || len(ae.Suggestions) != 0 {
		t.Fatalf("a %d-byte name got suggestions %v: it was compared with the tools", len(huge), ae.Suggestions)
	}
	if len(ae.Message) > 1000 || len(strings.Join(ae.Suggestions, "")) > 1000 {
		t.Fatalf("error echoes %d bytes", len(ae.Message))
	}
	// Ordinary typos still get their suggestion among many tools.
	_, err = e.Inspect(ctx, "tool_0002_xy")
	if ae := contract.AsError(err); !slices.Contains(ae.Suggestions, "tool_0002_xx") {
		t.Fatalf("typo: suggestions %v", ae.Suggestions)
	}
}
