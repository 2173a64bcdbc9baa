package main

import (
	"os"
	"path/filepath"
)

// A second copy of the corpus project for the git workflow server, which
// pushes and pulls: a fresh copy (the other git servers change the first),
// cloned from a bare repository on disk as its origin, where a teammate has
// pushed a commit the copy has not pulled yet.
func (w *world) makeWorkRepo() error {
	dir := filepath.Join(w.root, "workflow")
	copyOf := &world{root: w.root, home: w.home, project: filepath.Join(dir, "orders-service")}
	if err := copyOf.makeProject(); err != nil {
		return err
	}
	origin := filepath.Join(dir, "origin.git")
	env := []string{"HOME=" + w.home, "GIT_CONFIG_NOSYSTEM=1"}
	teammate := append([]string{"GIT_AUTHOR_NAME=Grace Hopper", "GIT_AUTHOR_EMAIL=grace@example.com", "GIT_COMMITTER_NAME=Grace Hopper",
		"GIT_COMMITTER_EMAIL=grace@example.com", "GIT_AUTHOR_DATE=2026-01-11T16:20:00Z", "GIT_COMMITTER_DATE=2026-01-11T16:20:00Z"}, env...)
	review := filepath.Join(dir, "grace")
	for _, s := range []struct {
		in   string
		env  []string
		args []string
	}{
		{dir, env, []string{"init", "-q", "--bare", "-b", "main", origin}},
		{copyOf.project, env, []string{"remote", "add", "origin", origin}},
		{copyOf.project, env, []string{"push", "-q", "origin", "main", "feature/csv-export", "--tags"}},
		{copyOf.project, env, []string{"branch", "-q", "--set-upstream-to=origin/main", "main"}},
		{copyOf.project, env, []string{"config", "push.autoSetupRemote", "true"}},
		{dir, env, []string{"clone", "-q", origin, review}},
	} {
		if err := runIn(s.in, s.env, "git", s.args...); err != nil {
			return err
		}
	}
	guide := filepath.Join(review, "docs", "guide.md")
	b, err := os.ReadFile(guide)
	if err != nil {
		return err
	}
	if err := os.WriteFile(guide, append(b, "\nThe export's tax rate comes from config.yaml (tax_rate, 0.21 in 2026).\n"...), 0o644); err != nil {
		return err
	}
	for _, args := range [][]string{{"commit", "-q", "-am", "docs: where the export's tax rate comes from"}, {"push", "-q", "origin", "main"}} {
		if err := runIn(review, teammate, "git", args...); err != nil {
			return err
		}
	}
	// The teammate's review notes, not committed yet (the memory server commits them).
	if err := os.WriteFile(filepath.Join(review, "docs", "review-notes.md"), []byte("# Review notes: CSV export\n\n- Paging: limit and offset over the id order, 25 rows by default, at most 500\n- Tax column: 0.21, from config.yaml, integer cents\n- Open: does finance need a BOM?\n"), 0o644); err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Join(dir, "scratch"), 0o755); err != nil {
		return err
	}
	w.workRepo = copyOf.project
	return nil
}

// makeOffice2 writes a second office folder (docs.go) for the file server
// that reorganises it, fresh: the other file-processing server writes into
// the first.
func (w *world) makeOffice2() error {
	if err := w.need("pdf"); err != nil {
		return err
	}
	fresh := &world{root: filepath.Join(w.root, "files"), pdfs: w.pdfs}
	if err := os.MkdirAll(fresh.root, 0o755); err != nil {
		return err
	}
	if err := fresh.makeDocs(); err != nil {
		return err
	}
	w.office2 = fresh.docs
	return nil
}
