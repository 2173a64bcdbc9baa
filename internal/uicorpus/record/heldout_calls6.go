package main

import "path/filepath"

// Calls of the held-out servers recorded 2 December 2026 in place of the
// three looked at (astrotask, tryll-datasets, openapi-twilio; heldout.go).

// graphqlShopCalls read the shop's GraphQL API: its schema, orders by
// status (literal and as variables), single orders, a cancellation, and a
// query on a field the schema lacks.
func graphqlShopCalls(w *world) []call {
	return []call{
		c("introspect-schema", nil),
		c("query-graphql", m{"query": `{ orders(status: "shipped") { id customer { name } product quantity total } }`}),
		c("query-graphql", m{"query": "query Pending($status: String!) {\n  orders(status: $status) { id customer { name } product quantity total }\n}", "variables": `{"status": "pending"}`}),
		c("query-graphql", m{"query": `{ orders(status: "cancelled") { id customer { name } product total } }`}),
		c("query-graphql", m{"query": "{ order(id: 1007) { id status total customer { name email } lines { product quantity total } } }"}),
		c("query-graphql", m{"query": "query Order($id: Int!) { order(id: $id) { id status total customer { name email } lines { product quantity total } } }", "variables": `{"id": 1018}`}),
		c("query-graphql", m{"query": "mutation Cancel { cancelOrder(id: 1013) { id status refund } }"}),
		bad("query-graphql", m{"query": "{ payments(status: \"failed\") { id amount } }"}),
	}
}

// contextFilesCalls write the orders service's context files for coding
// assistants, ask for the checklist to refresh them, wire them into the
// assistants' own files and ask for the design-to-code guide.
func contextFilesCalls(w *world) []call {
	p := w.ctxProject
	return []call{
		c("setup_context", m{"projectPath": p, "projectName": "acme-orders", "autoDetect": true}),
		c("update_context", m{"projectPath": p, "sections": []any{"dependencies", "structure", "patterns"}, "autoDetectChanges": true}),
		c("update_context", m{"projectPath": p}),
		c("persist_context", m{"projectPath": p, "tools": []any{"claude-code", "cursor", "copilot"}, "syncMode": "copy", "gitHooks": true}),
		c("figma_to_code", m{"mode": "quick", "framework": "react", "includeA11y": true, "includeResponsive": true}),
		c("figma_to_code", m{"mode": "detailed", "framework": "vue", "includeA11y": true, "includeResponsive": false}),
		bad("setup_context", m{"projectPath": w.root + "/ctx/billing-service"}),
	}
}

// eslintFilesCalls lint the orders service's JavaScript: its module, the
// legacy import script, the configuration, all three together, and a file
// that is not there.
func eslintFilesCalls(w *world) []call {
	at := func(rel string) string { return filepath.Join(w.lintProject, rel) }
	return []call{
		c("lint-files", m{"filePaths": []any{at("src/orders.js")}}),
		c("lint-files", m{"filePaths": []any{at("scripts/import-legacy.js")}}),
		c("lint-files", m{"filePaths": []any{at("src/orders.js"), at("scripts/import-legacy.js"), at("eslint.config.js")}}),
		c("lint-files", m{"filePaths": []any{at("eslint.config.js")}}),
		bad("lint-files", m{"filePaths": []any{at("src/payments.js")}}),
	}
}
