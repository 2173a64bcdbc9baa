package apitest_test

import (
	"log/slog"
	"testing"

	"github.com/genui-dev/genui/engine"
	"github.com/genui-dev/genui/engine/apiclient"
	"github.com/genui-dev/genui/engine/apitest"
	"github.com/genui-dev/genui/engine/contract"
	"github.com/genui-dev/genui/engine/gen"
	"github.com/genui-dev/genui/internal/llmtest"
	"github.com/genui-dev/genui/internal/testenv"
)

// The host half of the suite, against npm's server-everything, for both
// implementations. The sampling draft goes through genui's real Anthropic
// client against a stand-in speaking the Messages API (streaming).

const draftText = "Eleven is the only prime between 10 and 12."

func everything(t *testing.T) apitest.Everything {
	t.Helper()
	ev := apitest.Everything{Node: testenv.NodePath(t), Script: testenv.NPMBin(t, "@modelcontextprotocol/server-everything", "")}
	srv := llmtest.New(t, llmtest.Anthropic, llmtest.Reply{Text: draftText})
	ev.LLM = func(o *engine.Options) {
		l, err := gen.New(gen.Config{Provider: gen.ProviderAnthropic, Model: "stand-in-model", BaseURL: srv.BaseURL(),
			APIKey: llmtest.TestKey, Logger: slog.New(slog.DiscardHandler)})
		if err != nil {
			t.Fatal(err)
		}
		o.Generator = l
	}
	ev.LLMText = draftText
	ev.LLMRequests = func() []string {
		var out []string
		for _, r := range srv.Requests() {
			out = append(out, r.User())
		}
		return out
	}
	return ev
}

func TestHostConformanceInProcess(t *testing.T) {
	apitest.RunHost(t, everything(t), func(t *testing.T, h *apitest.Harness) contract.API { return h.E })
}

func TestHostConformanceHTTPClient(t *testing.T) {
	apitest.RunHost(t, everything(t), func(t *testing.T, h *apitest.Harness) contract.API { return apiclient.New(h.APIURL, nil) })
}
