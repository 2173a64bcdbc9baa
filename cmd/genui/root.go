package main

import (
	"fmt"
	"os"

	"github.com/spf13/cobra"

	"github.com/genui-dev/genui/config"
	"github.com/genui-dev/genui/engine"
	"github.com/genui-dev/genui/engine/app"
	"github.com/genui-dev/genui/engine/demo"
)

// Commands only: parse flags, set up the configuration and build and run an
// app (package engine/app, from package config's resolved settings).
// TestCommandsHoldNoLogic keeps it that way.

func newRootCmd() *cobra.Command {
	root := &cobra.Command{
		Use:           "genui",
		Short:         "Give any MCP tool server interactive UIs (MCP Apps)",
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	// Help goes to stdout (genui serve --help | less); errors to stderr. A
	// stdio server's stdout carries only JSON-RPC: help and usage are never
	// printed while serving (SilenceUsage), only when asked for.
	root.SetOut(os.Stdout)
	root.SetErr(os.Stderr)
	root.AddCommand(newMCPCmd(), newServeCmd(), newDemoServerCmd(), newVersionCmd(), newPreviewCmd(), newExportCmd(),
		newInstallCmd(), newTUICmd(), newConfigCmd(), newSpecCmd(), newCheckCmd(), newLintCmd())
	return root
}

func newMCPCmd() *cobra.Command {
	var f config.Flags
	cmd := &cobra.Command{
		Use:   "mcp [flags] [-- UPSTREAM_CMD [ARGS...]]",
		Short: "Serve genui as a stdio MCP server (for Claude Code and other hosts)",
		Long: "genui mcp speaks MCP over stdin/stdout to a host (Claude Code, an IDE) and wraps the\n" +
			"upstream MCP server given after -- (a stdio command) or by --upstream-url (HTTP/SSE),\n" +
			"adding a UI to each of its tools. With no upstream (nothing after --, no --upstream-url,\n" +
			"no upstream in genui.json) it wraps genui's built-in demo server. Its files (log, port\n" +
			"files, cached UIs) go to --dir; stdout carries JSON-RPC only.",
		Example: "  genui mcp                                     # the built-in demo server\n" +
			"  genui mcp -- node my-server.js --stdio        # a stdio upstream: its command after --\n" +
			"  genui mcp -- npx -y @modelcontextprotocol/server-everything\n" +
			"  genui mcp --upstream-url http://127.0.0.1:8080/mcp\n" +
			"  claude mcp add genui -- genui mcp -- node my-server.js   # register it with Claude Code",
		RunE: func(cmd *cobra.Command, args []string) error {
			s, err := app.Configure(&f, args, cmd.ArgsLenAtDash())
			if err != nil {
				return err
			}
			defer s.Close()
			a, err := s.NewApp()
			if err != nil {
				return err
			}
			ctx, stop := app.SignalContext()
			defer stop()
			// stdin closing means the host is gone: shut everything down.
			return a.Run(ctx, a.ServeStdio(os.Stdin, os.Stdout))
		},
	}
	f.Register(cmd.Flags())
	f.RegisterCapabilities(cmd.Flags(), "host")
	return cmd
}

func newServeCmd() *cobra.Command {
	var f config.Flags
	cmd := &cobra.Command{
		Use:   "serve [flags] [-- UPSTREAM_CMD [ARGS...]]",
		Short: "Serve genui over HTTP (streamable HTTP at /mcp, legacy SSE at /sse + /message)",
		Long: "genui serve wraps the upstream MCP server given after -- (a stdio command) or by\n" +
			"--upstream-url (HTTP/SSE) and serves it over HTTP on loopback, each tool with a UI; it\n" +
			"prints the MCP URL and a browser preview URL per tool. With no upstream (nothing after --,\n" +
			"no --upstream-url, no upstream in genui.json) it serves genui's built-in demo server. Its\n" +
			"files (log, port files, cached UIs) go to --dir.",
		Example: "  genui serve                                   # the built-in demo server\n" +
			"  genui serve --mcp-port 7331 -- python my_server.py\n" +
			"  genui serve -- npx -y @modelcontextprotocol/server-memory\n" +
			"  genui serve --upstream-url http://127.0.0.1:8080/sse --upstream-transport sse",
		RunE: func(cmd *cobra.Command, args []string) error {
			s, err := app.Configure(&f, args, cmd.ArgsLenAtDash())
			if err != nil {
				return err
			}
			defer s.Close()
			a, err := s.NewApp()
			if err != nil {
				return err
			}
			ctx, stop := app.SignalContext()
			defer stop()
			return a.Run(ctx, nil, a.ServeBanner(os.Stderr, s.LogPath()))
		},
	}
	f.Register(cmd.Flags())
	f.RegisterPorts(cmd.Flags())
	f.RegisterCapabilities(cmd.Flags(), "workbench")
	return cmd
}

func newVersionCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "Print genui's version: genui vX.Y.Z (commit)",
		Args:  cobra.NoArgs,
		Run: func(cmd *cobra.Command, _ []string) {
			fmt.Fprintln(os.Stdout, engine.VersionLine())
		},
	}
}

func newDemoServerCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "demo-server",
		Short: "Run the built-in demo upstream as a plain stdio MCP server (no UI metadata)",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			ctx, stop := app.SignalContext()
			defer stop()
			return demo.ServeStdio(ctx, os.Stdin, os.Stdout)
		},
	}
}
