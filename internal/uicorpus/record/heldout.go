package main

import "path/filepath"

// heldOutSpecs are the servers of the held-out split (testdata/uicorpus/README.md):
// chosen by kind before anyone saw how genui draws them, recorded into
// heldout/ and scored, never looked at while the generator changes.
func heldOutSpecs() []spec {
	return []spec{
		{name: "postgres-query", pkg: "mcp-postgres-server", bin: "build/index.js", kind: "database (PostgreSQL, read-only queries and schema)",
			setup: "PostgreSQL from Debian on loopback with a shop database", needs: []string{"postgres"},
			env:   func(w *world) []string { return []string{"DATABASE_URL=" + w.pgURL, "PG_ALLOW_WRITE=false"} },
			calls: postgresQueryCalls},
		{name: "postgres-enhanced", pkg: "enhanced-postgres-mcp-server", bin: "dist/index.js", kind: "database (PostgreSQL, read and write)",
			setup: "PostgreSQL from Debian on loopback with a shop database", needs: []string{"postgres"},
			args: func(w *world) []string { return []string{w.pgURL} }, calls: postgresEnhancedCalls},
		{name: "obsidian-notes", pkg: "obsidian-mcp", bin: "dist/main.js", kind: "notes vault (markdown, Obsidian; read and write)",
			setup: "a vault of a dozen markdown notes with wikilinks, tags, task lists and front matter", needs: []string{"vault"},
			node22: true, args: func(w *world) []string { return []string{"serve", "--vault", "notes=" + w.vault} }, calls: obsidianNotesCalls},
		{name: "taskmanager", pkg: "@kazuph/mcp-taskmanager", bin: "dist/index.js", kind: "task manager (requests split into tasks)",
			env: func(w *world) []string {
				return []string{"TASK_MANAGER_FILE_PATH=" + filepath.Join(w.root, "tasks.json")}
			}, calls: taskManagerCalls},
		{name: "calc", pkg: "@coo-quack/calc-mcp", bin: "dist/index.js", kind: "math, dates, encoding and hashing", calls: calcCalls},
		{name: "pdf-reader", pkg: "@sylphx/pdf-reader-mcp", bin: "dist/index.js", kind: "PDF reading",
			setup: "an invoice and a two-page report printed to PDF by Debian's chromium", needs: []string{"pdf"}, calls: pdfReaderCalls},
		{name: "knowledge-graph", pkg: "@itseasy21/mcp-knowledge-graph", bin: "dist/index.js", kind: "knowledge graph memory",
			args: func(w *world) []string { return []string{"--memory-path", filepath.Join(w.root, "memory.jsonl")} }, calls: knowledgeGraphCalls},
		{name: "curl", pkg: "@mcp-get-community/server-curl", bin: "dist/index.js", kind: "HTTP requests (curl-like)",
			setup: "a local web site on loopback", needs: []string{"site"}, calls: curlCalls},
		{name: "memory-bank", pkg: "@allpepper/memory-bank-mcp", bin: "dist/main/index.js", kind: "project memory banks (markdown files)",
			setup: "a memory bank with two projects", needs: []string{"bank"},
			env: func(w *world) []string { return []string{"MEMORY_BANK_ROOT=" + w.bank} }, calls: memoryBankCalls},
		{name: "system-monitor", pkg: "@modelcontextprotocol/server-system-monitor", bin: "dist/index.js", kind: "system statistics (an MCP App server)",
			setup: "run in its own PID namespace", ownProcesses: true, node22: true,
			args: func(w *world) []string { return []string{"--stdio"} }, calls: systemMonitorCalls},
		{name: "redis-kv", pkg: "@modelcontextprotocol/server-redis", bin: "dist/index.js", kind: "key-value store (Redis)",
			setup: "redis-server from Debian on loopback with a few keys", needs: []string{"redis"},
			args: func(w *world) []string { return []string{w.redisURL} }, calls: redisKVCalls},
		{name: "git-cli", pkg: "mcp-git", bin: "dist/cli.js", kind: "git",
			setup: "the corpus project: a git repository with four commits, a tag, a feature branch, a changed and an untracked file",
			calls: gitCLICalls, skip: map[string]string{"git_init": "would make a second repository inside the corpus project; the server refuses a folder that does not exist yet"}},
		{name: "files", pkg: "@agent-infra/mcp-server-filesystem", bin: "dist/index.cjs", kind: "files",
			setup: "the corpus project folder", args: func(w *world) []string { return []string{"--allowed-directories", w.project} }, calls: filesCalls},
		{name: "files-basic", pkg: "mcp-server-filesystem", bin: "dist/index.js", kind: "files",
			setup: "the corpus project folder", args: func(w *world) []string { return []string{w.project} }, calls: filesBasicCalls},
		{name: "commands", pkg: "mcp-server-commands", bin: "build/index.js", kind: "commands and scripts", license: "MIT (its LICENSE file; the manifest names none)",
			setup: "the corpus project folder", calls: commandsCalls},
		{name: "bash", pkg: "bash-command-mcp", bin: "dist/index.js", kind: "shell commands",
			setup: "the corpus project folder; run in its own PID namespace", ownProcesses: true, calls: bashCalls},
	}
}
