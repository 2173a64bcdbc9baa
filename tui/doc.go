// Package tui is genui's terminal workbench (`genui tui`): a bubbletea
// program that shows one engine through contract.API, in-process or attached
// to a running genui over HTTP. One root model (Model) routes messages and
// owns the layout; each pane of the right side is a component with its own
// state, Update, View and keys, registered in one table (paneTable); dialogs
// (refine box, confirmations, help) stack in an overlay. Engine calls are
// commands; engine events become messages in one place (readEvents,
// events.go); global keys live in keys.go and styles in styles.go. It
// imports engine/contract (the API and its types) and Charm's libraries, never the
// engine's internals.
package tui
