// Package tui will hold genui's bubbletea workbench. Not built yet.
package tui
