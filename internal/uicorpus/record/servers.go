package main

import (
	"path/filepath"
	"time"
)

// specs are the corpus servers, in recording order.
func specs() []spec {
	return []spec{
		{name: "playwright", pkg: "@playwright/mcp", bin: "cli.js", kind: "browser automation (Playwright)",
			setup: "a local web site on loopback; Debian's chromium, headless",
			needs: []string{"site"},
			args: func(w *world) []string {
				return []string{"--headless", "--isolated", "--no-sandbox", "--browser", "chromium", "--executable-path", "/usr/bin/chromium",
					"--caps", "vision,pdf,devtools", "--output-dir", filepath.Join(w.root, "playwright-out"), "--viewport-size", "1024x700"}
			},
			calls: playwrightCalls,
			skip:  map[string]string{"browser_annotate": "waits for a person to draw on the page in the Playwright dashboard"}},
		{name: "chrome-devtools", pkg: "chrome-devtools-mcp", bin: "build/src/bin/chrome-devtools-mcp.js", kind: "browser automation and DevTools (Chrome DevTools Protocol)",
			setup: "a local web site on loopback; Debian's chromium, headless",
			needs: []string{"site"},
			args: func(w *world) []string {
				return []string{"--headless", "--isolated", "--executablePath", "/usr/bin/chromium", "--usageStatistics=false", "--performanceCrux=false",
					"--chromeArg=--no-sandbox", "--viewport", "1024x700"}
			},
			calls: devtoolsCalls},
		{name: "desktop-commander", pkg: "@wonderwhy-er/desktop-commander", bin: "dist/index.js", kind: "terminal, processes, files and search",
			setup:        "the corpus project folder (a small orders service); run in its own PID namespace, so its process list holds only its own processes",
			ownProcesses: true,
			calls:        desktopCommanderCalls,
			skip:         map[string]string{"give_feedback_to_desktop_commander": "opens an external feedback web form in a desktop browser"}},
		{name: "git", pkg: "@cyanheads/git-mcp-server", bin: "dist/index.js", kind: "git",
			setup: "the corpus project: a git repository with four commits, a tag, a feature branch, a changed and an untracked file",
			env: func(w *world) []string {
				return []string{"MCP_TRANSPORT_TYPE=stdio", "MCP_LOG_LEVEL=error", "GIT_BASE_DIR=" + w.root, "GIT_SIGN_COMMITS=false"}
			},
			calls: gitCalls},
		{name: "excel", pkg: "@negokaz/excel-mcp-server", bin: "dist/launcher.js", kind: "spreadsheets (xlsx)",
			setup: "an empty workbook (data/sales.xlsx) the server then fills",
			env:   func(w *world) []string { return []string{"EXCEL_MCP_PAGING_CELLS_LIMIT=4000"} },
			calls: excelCalls},
		{name: "postgres", pkg: "@modelcontextprotocol/server-postgres", bin: "dist/index.js", kind: "database (PostgreSQL, read-only SQL)",
			setup: "PostgreSQL from Debian on loopback with a shop database (customers, products, 40 orders, a view)",
			needs: []string{"postgres"},
			args:  func(w *world) []string { return []string{w.pgURL} },
			calls: postgresCalls},
		{name: "postgres-admin", pkg: "@henkey/postgres-mcp-server", bin: "build/index.js", kind: "database administration (PostgreSQL)",
			setup: "PostgreSQL from Debian on loopback with a shop database",
			needs: []string{"postgres"},
			args:  func(w *world) []string { return []string{"--connection-string", w.pgURL} },
			calls: postgresAdminCalls},
		{name: "redis", pkg: "@gongrzhe/server-redis-mcp", bin: "build/index.js", kind: "key-value store (Redis)",
			setup: "redis-server from Debian on loopback with a few keys",
			needs: []string{"redis"},
			args:  func(w *world) []string { return []string{w.redisURL} },
			calls: redisCalls},
		{name: "fetch", pkg: "@tokenizin/mcp-npx-fetch", bin: "dist/index.js", kind: "fetch web content",
			setup: "a local web site on loopback",
			needs: []string{"site"},
			calls: fetchCalls},
		{name: "ripgrep", pkg: "mcp-ripgrep", bin: "dist/index.js", kind: "search (ripgrep)",
			setup: "the corpus project folder; Debian's ripgrep",
			calls: ripgrepCalls},
		{name: "time", pkg: "time-mcp", bin: "dist/index.js", kind: "time and dates",
			calls: timeCalls},
		{name: "sequential-thinking", pkg: "@modelcontextprotocol/server-sequential-thinking", bin: "dist/index.js", kind: "reasoning steps",
			env:   func(w *world) []string { return []string{"DISABLE_THOUGHT_LOGGING=true"} },
			calls: thinkingCalls},
		{name: "puppeteer", pkg: "@modelcontextprotocol/server-puppeteer", bin: "dist/index.js", kind: "browser automation (Puppeteer)",
			setup: "a local web site on loopback; Debian's chromium, headless",
			needs: []string{"site"},
			env: func(w *world) []string {
				return []string{`PUPPETEER_LAUNCH_OPTIONS={"headless":true,"executablePath":"/usr/bin/chromium","args":["--no-sandbox"]}`, "ALLOW_DANGEROUS=true"}
			},
			calls: puppeteerCalls},
		{name: "code-runner", pkg: "mcp-server-code-runner", bin: "dist/cli.js", kind: "code execution",
			calls: codeRunnerCalls, timeout: 90 * time.Second},
	}
}

// at is a path inside the project.
func (w *world) at(rel string) string { return filepath.Join(w.project, filepath.FromSlash(rel)) }
