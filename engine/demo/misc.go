package demo

import (
	"bytes"
	"context"
	"encoding/base64"
	"fmt"
	"image"
	"image/color"
	"image/png"

	"github.com/mark3labs/mcp-go/mcp"
)

// Tiny image: a 16x16 square of one colour.
const tinySize = 16

var tinyColor = color.NRGBA{R: 0x3B, G: 0x82, B: 0xF6, A: 0xFF}

func buildTinyPNG() []byte {
	img := image.NewNRGBA(image.Rect(0, 0, tinySize, tinySize))
	for y := range tinySize {
		for x := range tinySize {
			img.SetNRGBA(x, y, tinyColor)
		}
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		panic("demo: encode tiny PNG: " + err.Error()) // cannot happen for an in-memory image
	}
	return buf.Bytes()
}

func tinyImageTool() mcp.Tool {
	const title = "Tiny image"
	return mcp.NewTool("get_tiny_image",
		mcp.WithToolTitle(title),
		mcp.WithDescription("Returns a small PNG image (a 16x16 solid blue square) as image content, with a text description."),
		mcp.WithToolAnnotation(annotations(title, true, false, true)),
	)
}

func (st *state) handleTinyImage(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	return &mcp.CallToolResult{Content: []mcp.Content{
		mcp.NewImageContent(base64.StdEncoding.EncodeToString(st.png), "image/png"),
		mcp.NewTextContent(fmt.Sprintf("A %dx%d PNG image: a solid blue (#%02X%02X%02X) square, %d bytes.",
			tinySize, tinySize, tinyColor.R, tinyColor.G, tinyColor.B, len(st.png))),
	}}, nil
}

func resetTool() mcp.Tool {
	const title = "Reset demo"
	t := mcp.NewTool("reset_demo",
		mcp.WithToolTitle(title),
		mcp.WithDescription("Reset the demo server: forget all battery test jobs and set the default units back to metric."),
		mcp.WithToolAnnotation(annotations(title, false, true, true)),
	)
	t.Meta = visibility("model")
	return t
}

func (st *state) handleReset(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	st.mu.Lock()
	n := len(st.jobs)
	st.jobs = make(map[string]*batteryJob)
	st.nextJob = 0
	st.units = unitsMetric
	st.mu.Unlock()
	plural := "s"
	if n == 1 {
		plural = ""
	}
	return mcp.NewToolResultText(fmt.Sprintf("Demo reset: cleared %d battery job%s; default units are metric.", n, plural)), nil
}

func setUnitsTool() mcp.Tool {
	const title = "Set units"
	return mcp.NewTool("set_units",
		mcp.WithToolTitle(title),
		mcp.WithDescription("Choose the default unit system for the weather tools (used when a call omits units)."),
		mcp.WithString("units",
			mcp.Required(),
			mcp.Description("metric (°C) or imperial (°F)."),
			mcp.Enum(unitsMetric, unitsImperial),
		),
		mcp.WithToolAnnotation(annotations(title, false, false, true)),
	)
}

func (st *state) handleSetUnits(_ context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	a, err := parseArgs(req)
	if err != nil {
		return toolError("%v", err), nil
	}
	if _, ok := a["units"]; !ok {
		return toolError("units is required: %q or %q", unitsMetric, unitsImperial), nil
	}
	units, err := a.units("")
	if err != nil {
		return toolError("%v", err), nil
	}
	st.mu.Lock()
	st.units = units
	st.mu.Unlock()
	return mcp.NewToolResultText("Units set to " + units), nil
}
