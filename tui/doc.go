// Package tui is genui's terminal workbench (`genui tui`): a bubbletea
// program that shows one engine through contract.API, in-process or attached
// to a running genui over HTTP. One root model (Model) with one switch in
// Update and a handleX method per message; engine calls are commands; engine
// events become messages in one place (readEvents, events.go); keys live in
// keys.go and styles in styles.go. It imports engine (the API and its
// types) and Charm's libraries, never the engine's internals.
package tui
