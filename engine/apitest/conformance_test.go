package apitest_test

import (
	"testing"

	"github.com/genui-dev/genui/engine/apiclient"
	"github.com/genui-dev/genui/engine/apitest"
	"github.com/genui-dev/genui/engine/contract"
)

// The in-process engine and the HTTP client of its side server pass the
// same suite: front ends cannot tell them apart.

func TestConformanceInProcess(t *testing.T) {
	apitest.Run(t, func(t *testing.T, h *apitest.Harness) contract.API { return h.E })
}

func TestConformanceHTTPClient(t *testing.T) {
	apitest.Run(t, func(t *testing.T, h *apitest.Harness) contract.API { return apiclient.New(h.APIURL, nil) })
}
