package main

import (
	"os"
	"path/filepath"
)

// The diagrams folder of the seventh held-out set (heldout.go): where the
// draw.io server writes the orders service's diagrams and the Mermaid server
// saves its renderings; node_modules links to the corpus's npm prefix, so that
// the Mermaid server's `npx -y @mermaid-js/mermaid-cli` finds the installed
// mermaid-cli instead of asking the registry.
func (w *world) makeDiagrams() error {
	dir := filepath.Join(w.root, "diagrams", "orders-service")
	if err := os.MkdirAll(filepath.Join(dir, "docs"), 0o755); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(dir, "package.json"), []byte(`{"name": "orders-service-docs", "private": true}`+"\n"), 0o644); err != nil {
		return err
	}
	abs, err := filepath.Abs(filepath.Join(w.npm, "node_modules"))
	if err != nil {
		return err
	}
	if err := os.Symlink(abs, filepath.Join(dir, "node_modules")); err != nil {
		return err
	}
	w.diagrams = dir
	return nil
}

// Mermaid sources of the orders service: its request flow, the order's
// states, its tables and the release plan.
const (
	mermaidFlow = `flowchart LR
  client[Web shop] -->|POST /orders| api[Orders API]
  api --> auth{Authorised?}
  auth -- no --> reject[401 Unauthorized]
  auth -- yes --> db[(PostgreSQL)]
  api --> queue[[Redis queue]]
  queue --> worker[Fulfilment worker]
  worker --> mail[Mailer]
  worker --> db
`
	mermaidSequence = `sequenceDiagram
  participant C as Customer
  participant A as Orders API
  participant P as Payments
  participant W as Warehouse
  C->>A: POST /orders (3 items)
  A->>P: authorise 129.90 EUR
  P-->>A: authorised (auth 7731)
  A->>W: reserve stock
  W-->>A: reserved
  A-->>C: 201 Created, order 1042
`
	mermaidStates = `stateDiagram-v2
  [*] --> pending
  pending --> paid: payment captured
  pending --> cancelled: customer cancels
  paid --> shipped: parcel handed over
  shipped --> delivered
  shipped --> returned: return within 30 days
  delivered --> [*]
  cancelled --> [*]
`
	mermaidER = `erDiagram
  CUSTOMER ||--o{ ORDER : places
  ORDER ||--|{ ORDER_LINE : contains
  PRODUCT ||--o{ ORDER_LINE : "ordered in"
  CUSTOMER {
    int id
    string name
    string email
  }
  ORDER {
    int id
    string status
    decimal total
  }
`
	mermaidGantt = `gantt
  title Orders service 2.4 release
  dateFormat YYYY-MM-DD
  section Backend
  Refund endpoint      :done,    b1, 2026-11-02, 6d
  Stock reservations   :active,  b2, 2026-11-09, 8d
  section Release
  Staging soak         :         r1, after b2, 4d
  Production rollout   :milestone, r2, 2026-11-25, 0d
`
)
