package tui

import (
	"image/color"

	"charm.land/lipgloss/v2"
)

// palette is the workbench's named color roles for one background.
type palette struct {
	text, muted, subtle, accent, focus color.Color
	selBg, selFg                       color.Color
	ok, warn, err, info                color.Color
	added, removed                     color.Color
	bannerBg, bannerFg                 color.Color
	matchBg, matchFg                   color.Color
}

func newPalette(dark bool) palette {
	ld := lipgloss.LightDark(dark)
	c := lipgloss.Color
	return palette{
		text:     ld(c("#1f2328"), c("#e6e6e6")),
		muted:    ld(c("#6e7781"), c("#8b949e")),
		subtle:   ld(c("#d0d7de"), c("#3d444d")),
		accent:   ld(c("#8250df"), c("#c297ff")),
		focus:    ld(c("#0969da"), c("#58a6ff")),
		selBg:    ld(c("#ddf4ff"), c("#1f3a5f")),
		selFg:    ld(c("#0b1f33"), c("#ffffff")),
		ok:       ld(c("#1a7f37"), c("#3fb950")),
		warn:     ld(c("#9a6700"), c("#d29922")),
		err:      ld(c("#cf222e"), c("#f85149")),
		info:     ld(c("#0969da"), c("#58a6ff")),
		added:    ld(c("#1a7f37"), c("#56d364")),
		removed:  ld(c("#cf222e"), c("#ff7b72")),
		bannerBg: ld(c("#fff8c5"), c("#3b2e00")),
		bannerFg: ld(c("#4d2d00"), c("#f2cc60")),
		matchBg:  ld(c("#fae17d"), c("#bb8009")),
		matchFg:  ld(c("#1f2328"), c("#0d1117")),
	}
}

// Styles is every style the workbench draws with, built from the palette's
// roles in one place. With noColor (NO_COLOR) nothing is colored: selection
// is reverse video and emphasis bold/underline, so every state stays legible.
type Styles struct {
	Dark    bool
	NoColor bool

	Title, Text, Muted, Faint, Accent lipgloss.Style
	Border, BorderFocus               lipgloss.Style
	PaneTitle, PaneTitleFocus         lipgloss.Style
	Tab, TabActive                    lipgloss.Style
	Selected, SelectedBlur            lipgloss.Style
	OK, Warn, Err, Info               lipgloss.Style
	Added, Removed, Hunk              lipgloss.Style
	AddedWord, RemovedWord            lipgloss.Style // the words that changed in a paired line
	Banner, Status, StatusErr         lipgloss.Style
	Key, Label                        lipgloss.Style
	HelpKey, HelpDesc, HelpSep        lipgloss.Style
	Input                             lipgloss.Style
	Match                             lipgloss.Style // a search match

	// chroma is the syntax highlighting style name for this background.
	chroma string
}

// NewStyles builds the styles for a dark or light background.
func NewStyles(dark, noColor bool) Styles {
	p := newPalette(dark)
	n := lipgloss.NewStyle
	s := Styles{Dark: dark, NoColor: noColor, chroma: "github"}
	if dark {
		s.chroma = "github-dark"
	}
	if noColor {
		s.Title = n().Bold(true)
		s.Text, s.Muted, s.Faint, s.Accent = n(), n(), n(), n().Bold(true)
		s.Border, s.BorderFocus = n(), n().Bold(true)
		s.PaneTitle, s.PaneTitleFocus = n(), n().Bold(true)
		s.Tab, s.TabActive = n(), n().Reverse(true)
		s.Selected, s.SelectedBlur = n().Reverse(true), n().Underline(true)
		s.OK, s.Warn, s.Err, s.Info = n(), n().Bold(true), n().Bold(true), n()
		s.Added, s.Removed, s.Hunk = n(), n(), n().Bold(true)
		s.AddedWord, s.RemovedWord = n().Reverse(true), n().Underline(true)
		s.Banner, s.Status, s.StatusErr = n().Reverse(true), n(), n().Bold(true)
		s.Key, s.Label = n().Bold(true), n()
		s.HelpKey, s.HelpDesc, s.HelpSep = n().Bold(true), n(), n()
		s.Input = n()
		s.Match = n().Bold(true).Underline(true)
		s.chroma = ""
		return s
	}
	s.Title = n().Foreground(p.accent).Bold(true)
	s.Text = n().Foreground(p.text)
	s.Muted = n().Foreground(p.muted)
	s.Faint = n().Foreground(p.subtle)
	s.Accent = n().Foreground(p.accent)
	s.Border = n().Foreground(p.subtle)
	s.BorderFocus = n().Foreground(p.focus)
	s.PaneTitle = n().Foreground(p.muted).Bold(true)
	s.PaneTitleFocus = n().Foreground(p.focus).Bold(true)
	s.Tab = n().Foreground(p.muted)
	s.TabActive = n().Foreground(p.selFg).Background(p.selBg).Bold(true)
	s.Selected = n().Foreground(p.selFg).Background(p.selBg).Bold(true)
	s.SelectedBlur = n().Foreground(p.text).Underline(true)
	s.OK = n().Foreground(p.ok)
	s.Warn = n().Foreground(p.warn)
	s.Err = n().Foreground(p.err).Bold(true)
	s.Info = n().Foreground(p.info)
	s.Added = n().Foreground(p.added)
	s.Removed = n().Foreground(p.removed)
	s.Hunk = n().Foreground(p.info).Bold(true)
	s.AddedWord = n().Foreground(p.added).Reverse(true).Bold(true)
	s.RemovedWord = n().Foreground(p.removed).Reverse(true).Bold(true)
	s.Banner = n().Foreground(p.bannerFg).Background(p.bannerBg).Bold(true)
	s.Status = n().Foreground(p.muted)
	s.StatusErr = n().Foreground(p.err).Bold(true)
	s.Key = n().Foreground(p.accent).Bold(true)
	s.Label = n().Foreground(p.muted)
	s.HelpKey = n().Foreground(p.text).Bold(true)
	s.HelpDesc = n().Foreground(p.muted)
	s.HelpSep = n().Foreground(p.subtle)
	s.Input = n().Foreground(p.text)
	s.Match = n().Foreground(p.matchFg).Background(p.matchBg).Bold(true)
	return s
}
