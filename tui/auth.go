package tui

import (
	"fmt"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/genui-dev/genui/engine/contract"
)

// The OAuth sign-in to an http or sse upstream (contract.AuthState): a line
// under the header while it needs attention, "sign in", "sign out" and
// "sign-in details" in the palette, and the details dialog (where it
// stands, who the user is signed in as, the token's scopes and expiry, the
// last discovery, registration and token steps with their HTTP status). No
// token ever reaches the TUI: the state carries none.

// signInMsg is SignIn's or SignOut's answer.
type signInMsg struct {
	out bool
	a   contract.AuthState
	err error
}

func (s *shared) doSignIn(out bool) tea.Cmd {
	api := s.api
	ctx, cancel := s.callCtx(hostCall)
	if out {
		s.setStatus("signing out of the upstream…", false)
	} else {
		s.setStatus("starting the upstream's sign-in…", false)
	}
	return func() tea.Msg {
		defer cancel()
		var a contract.AuthState
		var err error
		if out {
			a, err = api.SignOut(ctx)
		} else {
			a, err = api.SignIn(ctx)
		}
		return signInMsg{out: out, a: a, err: err}
	}
}

func (m *Model) handleSignIn(msg signInMsg) tea.Cmd {
	switch {
	case msg.err != nil && msg.out:
		m.setStatus("sign out: "+errText(msg.err), true)
	case msg.err != nil:
		m.setStatus("sign in: "+errText(msg.err), true)
	case msg.out:
		m.setStatus("signed out of the upstream: its tokens are forgotten; sign in again to use it", false)
	default:
		m.setStatus("sign-in started: open the URL shown under the header (or in the sign-in details)", false)
	}
	return nil
}

// authPaletteEntries are the palette's sign-in actions (none for an
// upstream genui does not sign in to).
func authPaletteEntries(m *Model) []paletteEntry {
	if m.state.Upstream.Auth == nil {
		return nil
	}
	s := m.shared
	return []paletteEntry{
		{desc: "upstream: sign in (OAuth, in the browser)", run: func() tea.Cmd { return s.doSignIn(false) }},
		{desc: "upstream: sign out (forget its OAuth tokens)", run: func() tea.Cmd { return s.doSignIn(true) }},
		{desc: "upstream: sign-in details (OAuth status, account, scopes, expiry, steps)", run: func() tea.Cmd {
			d := &authDialog{s: s}
			return func() tea.Msg { return pushDialogMsg{d} }
		}},
	}
}

// authAttention is the line under the header while the sign-in needs the
// user (none while signed in or never asked for).
func (m *Model) authAttention() []string {
	a := m.state.Upstream.Auth
	if !m.haveState || a == nil || m.width < 10 {
		return nil
	}
	var lines []string
	switch a.Status {
	case contract.AuthSignedIn, contract.AuthNone:
		return nil
	case contract.AuthSigningIn:
		// The URL cut at the width, never at its hyphens, so it copies whole.
		lines = append(wrap("🔑 sign in to the upstream: open this URL in a browser", m.width-2),
			wrapHard([]string{clean(a.AuthorizationURL)}, m.width-2)...)
	default:
		lines = wrap(clean("🔑 upstream sign-in: "+orDash(a.Message)+" (: sign in)"), m.width-2)
	}
	// At most a quarter of the screen (at least 2 lines): a long message
	// (an authorization server's error) or URL would push the panes off
	// it; the sign-in details dialog shows both whole.
	if limit := max(2, m.height/4); len(lines) > limit {
		lines = append(lines[:limit-1], ansi.Truncate("… the rest in the sign-in details (: sign-in details)", m.width-2, "…"))
	}
	for i := range lines {
		lines[i] = " " + lines[i]
	}
	return lines
}

// maxHeaderAccount bounds the account's cells in the header (the details
// dialog shows it whole).
const maxHeaderAccount = 32

// authSummary is the header's short word on the sign-in ("" without one):
// "signed in as NAME (1m30s left)", "signed in" when the tokens name
// nobody.
func authSummary(a *contract.AuthState, now time.Time) string {
	if a == nil || a.Status == contract.AuthNone {
		return ""
	}
	if a.Status != contract.AuthSignedIn {
		return a.Status
	}
	who := "signed in"
	if name := strings.TrimSpace(clean(a.Account)); name != "" {
		if cellWidth(name) > maxHeaderAccount {
			name = fit(name, maxHeaderAccount)
		}
		who += " as " + name
	}
	if a.ExpiresAt.IsZero() {
		return who
	}
	if d := a.ExpiresAt.Sub(now); d > 0 {
		return who + " (" + d.Round(time.Second).String() + " left)"
	}
	return who + " (token expired: refreshed on the next call)"
}

// authDialog shows the sign-in like an auth debugger; it follows the state
// as it changes.
type authDialog struct{ s *shared }

func (d *authDialog) place() placement { return placeCenter }

func (d *authDialog) Keys() []key.Binding { return []key.Binding{d.s.keys.Cancel} }

func (d *authDialog) Update(msg tea.Msg) (tea.Cmd, bool) {
	k, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return nil, false
	}
	return nil, key.Matches(k, d.s.keys.Cancel) || key.Matches(k, d.s.keys.Interrupt)
}

func (d *authDialog) View(w, h int) []string {
	st := d.s.styles
	inner := max(w-4, 10)
	a := d.s.state.Upstream.Auth
	var lines []string
	add := func(label, value string) {
		for i, l := range wrap(clean(value), max(inner-14, 10)) {
			if i == 0 {
				lines = append(lines, " "+st.Label.Render(fit(label, 13))+st.Text.Render(l))
			} else {
				lines = append(lines, " "+strings.Repeat(" ", 13)+st.Text.Render(l))
			}
		}
	}
	if a == nil {
		add("status", "genui does not sign in to this upstream (only http and sse ones, without a static Authorization header)")
	} else {
		add("status", a.Status)
		if a.Message != "" {
			add("", a.Message)
		}
		if a.AuthorizationURL != "" {
			// Cut at the width, never at its hyphens, so it copies whole.
			for i, l := range wrapHard([]string{clean(a.AuthorizationURL)}, max(inner-14, 10)) {
				label := ""
				if i == 0 {
					label = "sign in at"
				}
				lines = append(lines, " "+st.Label.Render(fit(label, 13))+st.Info.Render(l))
			}
		}
		if a.Issuer != "" {
			add("issuer", a.Issuer)
		}
		if a.Account != "" && a.Status == contract.AuthSignedIn {
			add("signed in as", a.Account)
		}
		if a.ClientID != "" {
			how := "configured"
			if a.Registered {
				how = "registered dynamically"
			}
			add("client", a.ClientID+" ("+how+")")
		}
		if len(a.Scopes) > 0 {
			add("scopes", strings.Join(a.Scopes, " "))
		}
		if !a.ExpiresAt.IsZero() {
			exp := a.ExpiresAt.Format("15:04:05")
			if left := a.ExpiresAt.Sub(d.s.now()); left > 0 {
				exp += fmt.Sprintf(" (in %s)", left.Round(time.Second))
			} else {
				exp += " (expired; refreshed on the next call)"
			}
			if a.RefreshToken {
				exp += ", refresh token held"
			}
			add("expires", exp)
		}
		if a.Refreshes > 0 {
			add("refreshes", fmt.Sprint(a.Refreshes))
		}
		if len(a.Steps) > 0 {
			lines = append(lines, "", " "+st.Label.Render("last steps"))
		}
		for _, s := range a.Steps {
			res := fmt.Sprint(s.Status)
			if s.Error != "" {
				res = "err"
			}
			lines = append(lines, " "+st.Text.Render(fit(clean(fmt.Sprintf("%s  %-3s  %-29s %s %s", s.At.Format("15:04:05"), res, s.Step, s.Method, s.URL)), inner)))
			if s.Error != "" {
				for _, l := range wrap(clean(s.Error), max(inner-11, 10)) {
					lines = append(lines, "           "+st.Err.Render(l))
				}
			}
		}
	}
	lines = append(lines, "", " "+st.Muted.Render("sign in / sign out: the palette (:) · esc closes"))
	if len(lines)+2 > h {
		lines = lines[len(lines)-(h-2):]
	}
	return box(st, "Upstream sign-in (OAuth)", true, w, len(lines)+2, lines)
}
