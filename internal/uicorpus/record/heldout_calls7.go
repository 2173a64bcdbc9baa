package main

import "path/filepath"

// Calls of the held-out servers recorded 2 December 2026 as a seventh set, to
// take first scores after the seventh round of rules (heldout.go).

// drawioDiagramsCalls draw the orders service's architecture as a draw.io
// file: a new diagram, its services and stores (one batch laid out
// hierarchically), the connections between them, the diagram read back,
// a rename and a move, a node removed, a second diagram laid out in a
// circle, and a diagram that is not there.
func drawioDiagramsCalls(w *world) []call {
	arch := filepath.Join(w.diagrams, "docs", "architecture.drawio.svg")
	deploy := filepath.Join(w.diagrams, "docs", "deployment.drawio.svg")
	return []call{
		c("new_diagram", m{"file_path": arch}),
		c("add_nodes", m{"file_path": arch, "nodes": []any{
			m{"id": "shop", "title": "Web shop", "kind": "RoundedRectangle", "x": 40, "y": 40, "corner_radius": 8},
			m{"id": "api", "title": "Orders API\n(Go, :8080)", "kind": "Rectangle", "x": 240, "y": 40},
			m{"id": "db", "title": "PostgreSQL\nshop", "kind": "Cylinder", "x": 440, "y": 20},
			m{"id": "queue", "title": "Redis queue", "kind": "Cylinder", "x": 440, "y": 140},
			m{"id": "worker", "title": "Fulfilment worker", "kind": "Rectangle", "x": 640, "y": 140},
		}}),
		c("link_nodes", m{"file_path": arch, "edges": []any{
			m{"from": "shop", "to": "api", "title": "POST /orders"},
			m{"from": "api", "to": "db", "title": "SQL"},
			m{"from": "api", "to": "queue", "title": "order.created"},
			m{"from": "queue", "to": "worker", "dashed": true},
			m{"from": "worker", "to": "db", "title": "status updates"},
		}}),
		c("add_nodes", m{"file_path": arch, "nodes": []any{
			m{"id": "mailer", "title": "Mailer", "kind": "Ellipse", "x": 840, "y": 140},
			m{"id": "payments", "title": "Payments provider", "kind": "Ellipse", "x": 240, "y": 220, "width": 160, "height": 70},
		}}),
		c("link_nodes", m{"file_path": arch, "edges": []any{
			m{"from": "worker", "to": "mailer", "title": "shipping notice"},
			m{"from": "api", "to": "payments", "title": "authorise", "undirected": true},
		}}),
		c("get_diagram_info", m{"file_path": arch}),
		c("edit_nodes", m{"file_path": arch, "nodes": []any{
			m{"id": "api", "title": "Orders API\n(Go 1.25, :8080)", "width": 160},
			m{"id": "mailer", "kind": "Rectangle", "x": 860, "y": 150},
		}}),
		c("remove_nodes", m{"file_path": arch, "ids": []any{"payments"}}),
		c("get_diagram_info", m{"file_path": arch}),
		c("new_diagram", m{"file_path": deploy}),
		c("add_nodes", m{"file_path": deploy, "layout": m{"algorithm": "circle"}, "nodes": []any{
			m{"id": "lb", "title": "Load balancer", "kind": "Rectangle", "x": 0, "y": 0},
			m{"id": "app1", "title": "app-1 (eu-central)", "kind": "Rectangle", "x": 0, "y": 0},
			m{"id": "app2", "title": "app-2 (eu-central)", "kind": "Rectangle", "x": 0, "y": 0},
			m{"id": "pg", "title": "pg-primary", "kind": "Cylinder", "x": 0, "y": 0},
		}}),
		c("get_diagram_info", m{"file_path": deploy}),
		bad("get_diagram_info", m{"file_path": filepath.Join(w.diagrams, "docs", "billing.drawio.svg")}),
	}
}

// mermaidDiagramsCalls render the orders service's diagrams with Mermaid:
// its request flow (SVG, the live preview), a payment sequence, the order's
// states as PNG, its tables as PDF, the release plan in the dark theme, a
// preview saved into the docs folder, and a diagram with a syntax error.
func mermaidDiagramsCalls(w *world) []call {
	docs := filepath.Join(w.diagrams, "docs")
	return []call{
		c("mermaid_preview", m{"diagram": mermaidFlow, "preview_id": "request-flow"}),
		c("mermaid_preview", m{"diagram": mermaidSequence, "preview_id": "payment-sequence", "theme": "neutral"}),
		c("mermaid_preview", m{"diagram": mermaidStates, "preview_id": "order-states", "format": "png", "width": 1000, "height": 700, "scale": 1}),
		c("mermaid_preview", m{"diagram": mermaidER, "preview_id": "tables", "format": "pdf", "theme": "forest"}),
		c("mermaid_preview", m{"diagram": mermaidGantt, "preview_id": "release-2-4", "theme": "dark", "background": "#1e1e2e", "width": 1200}),
		c("mermaid_save", m{"save_path": filepath.Join(docs, "request-flow.svg"), "preview_id": "request-flow"}),
		c("mermaid_save", m{"save_path": filepath.Join(docs, "order-states.png"), "preview_id": "order-states", "format": "png"}),
		bad("mermaid_preview", m{"diagram": "flowchart LR\n  api --> db[(PostgreSQL\n  db -->> worker", "preview_id": "broken-flow"}),
	}
}
