package apitest_test

import (
	"testing"

	"github.com/genui-dev/genui/engine"
	"github.com/genui-dev/genui/engine/apiclient"
	"github.com/genui-dev/genui/engine/apitest"
)

// The in-process engine and the HTTP client of its side server pass the
// same suite: front ends cannot tell them apart.

func TestConformanceInProcess(t *testing.T) {
	apitest.Run(t, func(t *testing.T, h *apitest.Harness) engine.API { return h.E })
}

func TestConformanceHTTPClient(t *testing.T) {
	apitest.Run(t, func(t *testing.T, h *apitest.Harness) engine.API { return apiclient.New(h.APIURL, nil) })
}
