package main

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// world is what the corpus servers work on, all local: a project folder that
// is a git repository, a web site on loopback, PostgreSQL and Redis started
// from Debian's packages. Parts start when a server needs them and stop in
// close.
type world struct {
	npm, node, root, home, project string
	site                           string // http://127.0.0.1:PORT
	pgURL, redisURL                string
	vault, bank, pdfs              string // folders of the held-out servers' data (heldout_data.go)
	notes                          string // a second copy of the vault (heldout_data.go)
	meteo                          string // http://127.0.0.1:PORT, the weather API stand-in (meteo.go)
	telemetry                      string // the shop's traces, metrics and logs as a JSON file (otel.go)
	docs                           string // the office folder of the file-processing server (docs.go)
	notesAPI                       string // http://127.0.0.1:PORT, the stand-in for Obsidian's Local REST API (notesapi.go)
	api                            string // 127.0.0.1:PORT, the shop's GraphQL and WebSocket API (services.go)
	chromium                       string // chromium with --no-sandbox (services.go)
	sqlite                         string // the shop database as a SQLite file (heldout_data.go)
	prometheus                     string // http://127.0.0.1:PORT, Prometheus scraping the shop (prometheus.go)
	caldav                         string // http://127.0.0.1:PORT, Radicale with two calendars (caldav.go)
	alertmanager                   string // http://127.0.0.1:PORT, Alertmanager with the shop's alerts (alertmanager.go)
	workRepo                       string // a second copy of the project with an origin on disk (gitwork.go)
	office2                        string // a second office folder (gitwork.go)
	codeProject, filesProject      string // copies of the project for the code-analysis and file servers (projcopy.go)
	duckData                       string // the shop's customers, orders and service calls as CSV (projcopy.go)
	apiSpecs                       string // a folder with the shop API's OpenAPI description, servers per path (services.go)
	ctxProject, lintProject        string // copies of the project for the project-context and linter servers (projcopy.go)
	diagrams                       string // the orders service's diagrams folder (heldout_diagrams.go)
	sqlite2                        string // a second copy of the SQLite shop, for a server that writes to it (heldout_data.go)
	pgPort, redisPort              int
	ports                          map[int]int // recorded port -> usual port (normalize)
	stops                          []func()
}

func newWorld(npm string) (*world, error) {
	node, err := exec.LookPath("node")
	if err != nil {
		return nil, errors.New("node not found on PATH")
	}
	root, err := os.MkdirTemp("", "uicorpus-")
	if err != nil {
		return nil, err
	}
	// PostgreSQL runs as its own user and must reach its folder.
	if err := os.Chmod(root, 0o755); err != nil {
		return nil, err
	}
	w := &world{npm: npm, node: node, root: root, home: filepath.Join(root, "home"), project: filepath.Join(root, "project"), ports: map[int]int{}}
	if err := os.MkdirAll(w.home, 0o755); err != nil {
		return nil, err
	}
	// The git server commits as this identity.
	if err := os.WriteFile(filepath.Join(w.home, ".gitconfig"), []byte("[user]\n\tname = Ada Lovelace\n\temail = ada@example.com\n[init]\n\tdefaultBranch = main\n"), 0o644); err != nil {
		return nil, err
	}
	if err := w.makeProject(); err != nil {
		w.close()
		return nil, fmt.Errorf("project: %w", err)
	}
	return w, nil
}

func (w *world) close() {
	for i := len(w.stops) - 1; i >= 0; i-- {
		w.stops[i]()
	}
	if os.Getenv("RECORD_KEEP") == "" {
		_ = os.RemoveAll(w.root)
	}
}

// env is the servers' environment: ours without LLM keys or proxies, and
// nothing that would make a package download a browser.
func (w *world) env() []string {
	var out []string
	for _, kv := range os.Environ() {
		k := kv[:strings.IndexByte(kv+"=", '=')]
		if strings.HasSuffix(k, "_API_KEY") || strings.HasSuffix(k, "_proxy") || strings.HasSuffix(k, "_PROXY") || k == "HOME" {
			continue
		}
		out = append(out, kv)
	}
	return append(out, "PUPPETEER_SKIP_DOWNLOAD=1", "PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1", "CHROME_DEVTOOLS_MCP_NO_USAGE_STATISTICS=1",
		"TZ=UTC", "LANG=C.UTF-8")
}

func (w *world) need(part string) error {
	switch part {
	case "site":
		if w.site == "" {
			return w.startSite()
		}
	case "postgres":
		if w.pgURL == "" {
			return w.startPostgres()
		}
	case "redis":
		if w.redisURL == "" {
			return w.startRedis()
		}
	case "vault":
		if w.vault == "" {
			return w.makeVault()
		}
	case "bank":
		if w.bank == "" {
			return w.makeBank()
		}
	case "pdf":
		if w.pdfs == "" {
			return w.makePDFs()
		}
	case "notes":
		if w.notes == "" {
			return w.makeNotes()
		}
	case "api":
		if w.api == "" {
			return w.startAPI()
		}
	case "chromium":
		if w.chromium == "" {
			return w.makeChromium()
		}
	case "sqlite":
		if w.sqlite == "" {
			return w.makeSQLite()
		}
	case "prometheus":
		if w.prometheus == "" {
			return w.startPrometheus()
		}
	case "caldav":
		if w.caldav == "" {
			return w.startCalDAV()
		}
	case "workrepo":
		if w.workRepo == "" {
			return w.makeWorkRepo()
		}
	case "office2":
		if w.office2 == "" {
			return w.makeOffice2()
		}
	case "codeproj":
		if w.codeProject == "" {
			return w.makeCodeProject()
		}
	case "lintproj":
		if w.lintProject == "" {
			return w.makeLintProject()
		}
	case "ctxproj":
		if w.ctxProject == "" {
			return w.makeContextProject()
		}
	case "sqlite2":
		if err := w.need("sqlite"); err != nil {
			return err
		}
		if w.sqlite2 == "" {
			return w.copySQLite()
		}
	case "apispecs":
		if err := w.need("api"); err != nil {
			return err
		}
		if w.apiSpecs == "" {
			return w.makeAPISpecs()
		}
	case "duckdata":
		if w.duckData == "" {
			return w.makeDuckData()
		}
	case "filesproj":
		if w.filesProject == "" {
			return w.makeFilesProject()
		}
	case "alertmanager":
		if w.alertmanager == "" {
			return w.startAlertmanager()
		}
	case "diagrams":
		if w.diagrams == "" {
			return w.makeDiagrams()
		}
	case "meteo":
		if w.meteo == "" {
			return w.startMeteo()
		}
	case "notesapi":
		if w.notesAPI == "" {
			return w.startNotesAPI()
		}
	case "docs":
		if w.docs == "" {
			return w.makeDocs()
		}
	case "telemetry":
		if w.telemetry == "" {
			return w.makeTelemetry()
		}
	default:
		return fmt.Errorf("unknown world part %q", part)
	}
	return nil
}

func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

func (w *world) write(rel, body string) error {
	p := filepath.Join(w.project, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return err
	}
	return os.WriteFile(p, []byte(body), 0o644)
}

func runIn(dir string, env []string, name string, args ...string) error {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	out, err := cmd.CombinedOutput()
	if err != nil {
		return fmt.Errorf("%s %s: %w: %s", name, strings.Join(args, " "), err, out)
	}
	return nil
}

// makeProject writes a small service's source tree and commits it in
// several steps (fixed authors and dates), leaving one file changed and one
// untracked, and a feature branch and a tag.
func (w *world) makeProject() error {
	for rel, body := range projectFiles {
		if err := w.write(rel, body); err != nil {
			return err
		}
	}
	git := func(date string, args ...string) error {
		env := []string{"GIT_AUTHOR_NAME=Ada Lovelace", "GIT_AUTHOR_EMAIL=ada@example.com", "GIT_COMMITTER_NAME=Ada Lovelace",
			"GIT_COMMITTER_EMAIL=ada@example.com", "GIT_AUTHOR_DATE=" + date, "GIT_COMMITTER_DATE=" + date, "GIT_CONFIG_NOSYSTEM=1", "HOME=" + w.home}
		return runIn(w.project, env, "git", args...)
	}
	steps := [][]string{
		{"2026-01-05T09:12:00Z", "init", "-q", "-b", "main"},
		{"2026-01-05T09:12:00Z", "add", "README.md", "src/orders.js", "data/orders.csv"},
		{"2026-01-05T09:12:00Z", "commit", "-q", "-m", "orders: first import of the CSV reader"},
		{"2026-01-07T14:40:00Z", "add", "src/server.go", "config.yaml"},
		{"2026-01-07T14:40:00Z", "commit", "-q", "-m", "server: serve /orders with paging\n\nThe handler reads limit and offset and answers JSON."},
		{"2026-01-09T11:05:00Z", "add", "docs/guide.md", "logs/app.log", "notes.txt"},
		{"2026-01-09T11:05:00Z", "commit", "-q", "-m", "docs: guide for x86_64 and arm64 builds"},
		{"2026-01-09T11:06:00Z", "tag", "-a", "v0.1.0", "-m", "first release"},
		{"2026-01-10T08:00:00Z", "checkout", "-q", "-b", "feature/csv-export"},
	}
	for _, s := range steps {
		if err := git(s[0], s[1:]...); err != nil {
			return err
		}
	}
	if err := w.write("src/export.js", exportJS); err != nil {
		return err
	}
	for _, s := range [][]string{
		{"2026-01-10T08:30:00Z", "add", "src/export.js"},
		{"2026-01-10T08:30:00Z", "commit", "-q", "-m", "export: write orders as CSV"},
		{"2026-01-10T08:31:00Z", "checkout", "-q", "main"},
	} {
		if err := git(s[0], s[1:]...); err != nil {
			return err
		}
	}
	// Work in progress: a changed file and a new one.
	if err := w.write("src/orders.js", strings.Replace(projectFiles["src/orders.js"], "const TAX_RATE = 0.2;", "const TAX_RATE = 0.21; // 2026 rate", 1)); err != nil {
		return err
	}
	if err := w.write("TODO.md", "# TODO\n\n- [ ] paging for /orders/export\n- [x] CSV reader\n"); err != nil {
		return err
	}
	return writeWorkbook(w.at("data/sales.xlsx"))
}

// startSite serves the local web site the browser and fetch servers visit.
func (w *world) startSite() error {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	port := l.Addr().(*net.TCPAddr).Port
	w.ports[port] = 8080
	w.site = fmt.Sprintf("http://127.0.0.1:%d", port)
	srv := &http.Server{Handler: siteHandler(), ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = srv.Serve(l) }()
	w.stops = append(w.stops, func() { _ = srv.Close() })
	return nil
}

// asUser runs name as the Debian user u (PostgreSQL refuses to run as root).
func asUser(u string, cmd *exec.Cmd) error {
	if os.Geteuid() != 0 {
		return nil
	}
	usr, err := user.Lookup(u)
	if err != nil {
		return fmt.Errorf("user %s: %w", u, err)
	}
	uid, _ := strconv.Atoi(usr.Uid)
	gid, _ := strconv.Atoi(usr.Gid)
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid)}}
	return nil
}

func pgBin(name string) (string, error) {
	m, _ := filepath.Glob("/usr/lib/postgresql/*/bin/" + name)
	if len(m) == 0 {
		return "", fmt.Errorf("PostgreSQL's %s not found (apt-get install postgresql)", name)
	}
	return m[len(m)-1], nil
}

// startPostgres runs a throwaway PostgreSQL cluster on loopback (trust
// authentication) with a small shop database.
func (w *world) startPostgres() error {
	initdb, err := pgBin("initdb")
	if err != nil {
		return err
	}
	pgctl, _ := pgBin("pg_ctl")
	dir := filepath.Join(w.root, "pg")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	if os.Geteuid() == 0 {
		usr, err := user.Lookup("postgres")
		if err != nil {
			return err
		}
		uid, _ := strconv.Atoi(usr.Uid)
		gid, _ := strconv.Atoi(usr.Gid)
		if err := os.Chown(dir, uid, gid); err != nil {
			return err
		}
	}
	port, err := freePort()
	if err != nil {
		return err
	}
	run := func(name string, args ...string) error {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
		defer cancel()
		cmd := exec.CommandContext(ctx, name, args...)
		cmd.Dir = dir
		cmd.Env = []string{"PATH=/usr/bin:/bin", "LANG=C.UTF-8", "TZ=UTC"}
		if err := asUser("postgres", cmd); err != nil {
			return err
		}
		out, err := cmd.CombinedOutput()
		if err != nil {
			return fmt.Errorf("%s: %w: %s", filepath.Base(name), err, out)
		}
		return nil
	}
	data := filepath.Join(dir, "data")
	if err := run(initdb, "-D", data, "-U", "postgres", "--auth=trust", "-E", "UTF8", "--locale=C.UTF-8"); err != nil {
		return err
	}
	if err := run(pgctl, "-D", data, "-l", filepath.Join(dir, "log"), "-w", "-o", fmt.Sprintf("-p %d -k %s -c listen_addresses=127.0.0.1", port, dir), "start"); err != nil {
		return err
	}
	w.stops = append(w.stops, func() { _ = run(pgctl, "-D", data, "-m", "fast", "-w", "stop") })
	w.pgPort = port
	w.ports[port] = 5432
	if err := runIn(w.root, nil, "psql", "-q", "-v", "ON_ERROR_STOP=1", "-h", "127.0.0.1", "-p", strconv.Itoa(port), "-U", "postgres", "-c", "CREATE DATABASE shop"); err != nil {
		return err
	}
	w.pgURL = fmt.Sprintf("postgresql://postgres@127.0.0.1:%d/shop", port)
	if err := runIn(w.root, nil, "psql", "-q", "-v", "ON_ERROR_STOP=1", w.pgURL, "-c", shopSQL); err != nil {
		return err
	}
	// An archive database with an empty customers table to copy rows into.
	if err := runIn(w.root, nil, "psql", "-q", "-v", "ON_ERROR_STOP=1", "-h", "127.0.0.1", "-p", strconv.Itoa(port), "-U", "postgres", "-c", "CREATE DATABASE shop_archive"); err != nil {
		return err
	}
	return runIn(w.root, nil, "psql", "-q", "-v", "ON_ERROR_STOP=1", strings.Replace(w.pgURL, "/shop", "/shop_archive", 1), "-c",
		"CREATE TABLE customers (id integer PRIMARY KEY, name text NOT NULL, email text NOT NULL, country char(2) NOT NULL, created_at timestamptz NOT NULL)")
}

// startRedis runs redis-server on loopback without persistence, with a few keys.
func (w *world) startRedis() error {
	port, err := freePort()
	if err != nil {
		return err
	}
	cmd := exec.Command("redis-server", "--port", strconv.Itoa(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--dir", w.root)
	if err := w.startService("redis-server (apt-get install redis-server)", cmd, 10*time.Second, tcpOpen(port)); err != nil {
		return err
	}
	w.redisPort = port
	w.ports[port] = 6379
	w.redisURL = fmt.Sprintf("redis://127.0.0.1:%d", port)
	for _, kv := range [][]string{
		{"SET", "config:currency", "EUR"},
		{"SET", "session:4121", `{"user":"ada","cart":[1001,1002]}`},
		{"HSET", "order:1001", "customer", "Ada Lovelace", "total", "249.90", "status", "shipped"},
		{"LPUSH", "queue:emails", "welcome:ada", "receipt:1001"},
		{"SET", "counter:orders", "1042"},
	} {
		if err := runIn(w.root, nil, "redis-cli", append([]string{"-p", strconv.Itoa(port)}, kv...)...); err != nil {
			return err
		}
	}
	return nil
}

// startService starts a local service in its own process group (stopped
// with the world) and waits up to bound for ready.
func (w *world) startService(name string, cmd *exec.Cmd, bound time.Duration, ready func(context.Context) bool) error {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	w.stops = append(w.stops, func() { _ = syscall.Kill(-cmd.Process.Pid, syscall.SIGTERM); _ = cmd.Wait() })
	ctx, cancel := context.WithTimeout(context.Background(), bound)
	defer cancel()
	for !ready(ctx) {
		select {
		case <-ctx.Done():
			return fmt.Errorf("%s did not become ready in %s", name, bound)
		case <-time.After(100 * time.Millisecond):
		}
	}
	return nil
}

// tcpOpen is a service's readiness: its loopback port accepts.
func tcpOpen(port int) func(context.Context) bool {
	return func(ctx context.Context) bool {
		var d net.Dialer
		c, err := d.DialContext(ctx, "tcp", fmt.Sprintf("127.0.0.1:%d", port))
		if err != nil {
			return false
		}
		c.Close()
		return true
	}
}

// freePort finds a free loopback port for a server that listens on a port of
// its own, recorded as usual (its default) in the corpus.
func (w *world) freePort(usual int) int {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return usual
	}
	port := l.Addr().(*net.TCPAddr).Port
	_ = l.Close()
	w.ports[port] = usual
	return port
}
