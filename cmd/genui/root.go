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
	root.SetOut(os.Stderr) // help and usage never touch stdout (stdio MCP)
	root.AddCommand(newMCPCmd(), newServeCmd(), newDemoServerCmd(), newVersionCmd(), newPreviewCmd(), newExportCmd(),
		newInstallCmd(), newTUICmd(), newConfigCmd(), newCheckCmd())
	return root
}

func newMCPCmd() *cobra.Command {
	var f config.Flags
	cmd := &cobra.Command{
		Use:   "mcp [flags] [-- UPSTREAM_CMD [ARGS...]]",
		Short: "Serve genui as a stdio MCP server (for Claude Code and other hosts)",
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
