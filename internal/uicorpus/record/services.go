package main

import (
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/gorilla/websocket"
)

// The shop's API on loopback for the HTTP client server (heldout.go): a
// GraphQL endpoint over the site's orders and a WebSocket feed of order
// events. The GraphQL side answers the two queries and the mutation the
// recording sends, and GraphQL's error shape for anything else; a client
// cannot tell it from a real server for these requests.

type apiOrder struct {
	ID       int     `json:"id"`
	Customer string  `json:"customer"`
	Product  string  `json:"product"`
	Quantity int     `json:"quantity"`
	Total    float64 `json:"total"`
	Status   string  `json:"status"`
}

// apiOrders are the site's order table (content.go, orderRows) as records.
func apiOrders() []apiOrder {
	names := []string{"Ada Lovelace", "Charles Babbage", "Grace Hopper", "Alan Turing", "Katherine Johnson", "Edsger Dijkstra"}
	products := []string{"Anvil", "Rocket skates", "Giant magnet", "Bird seed", "Earthquake pills"}
	status := []string{"pending", "shipped", "shipped", "cancelled"}
	prices := []float64{249, 89.9, 19.9, 4.5, 12}
	var out []apiOrder
	for i := 1; i <= 24; i++ {
		q := 1 + (i*7)%9
		out = append(out, apiOrder{ID: 1000 + i, Customer: names[i%6], Product: products[i%5], Quantity: q,
			Total: float64(int(float64(q)*prices[i%5]*100+0.5)) / 100, Status: status[i%4]})
	}
	return out
}

// startAPI serves the GraphQL endpoint (/graphql), the feed (/feed), the
// REST API (/api/v1/..., described at /openapi.json) and the service's
// metrics (/metrics, prometheus.go).
func (w *world) startAPI() error {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	port := l.Addr().(*net.TCPAddr).Port
	w.ports[port] = 4000
	w.api = fmt.Sprintf("127.0.0.1:%d", port)
	mux := http.NewServeMux()
	mux.HandleFunc("/graphql", graphqlHandler)
	mux.HandleFunc("/feed", feedHandler)
	mux.HandleFunc("/metrics", shopMetrics)
	shop := newRESTShop()
	mux.Handle("/api/", shop)
	mux.Handle("/openapi.json", shop)
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = srv.Serve(l) }()
	w.stops = append(w.stops, func() { _ = srv.Close() })
	return nil
}

var (
	gqlOrdersRE = regexp.MustCompile(`orders\s*\(\s*status:\s*\$?"?(\w+)`)
	gqlOrderRE  = regexp.MustCompile(`order\s*\(\s*id:\s*\$?(\w+)`)
	gqlCancelRE = regexp.MustCompile(`cancelOrder\s*\(\s*id:\s*\$?(\w+)`)
)

func graphqlHandler(rw http.ResponseWriter, r *http.Request) {
	var req struct {
		Query     string          `json:"query"`
		Vars      json.RawMessage `json:"variables"`
		Variables map[string]any  `json:"-"`
	}
	rw.Header().Set("Content-Type", "application/json")
	// Variables come as an object or, as some clients send them and
	// express-graphql accepts, as a string holding one.
	vars := func() error {
		var s string
		if json.Unmarshal(req.Vars, &s) == nil {
			req.Vars = json.RawMessage(s)
		}
		if len(req.Vars) == 0 || string(req.Vars) == "null" || string(req.Vars) == "" {
			return nil
		}
		return json.Unmarshal(req.Vars, &req.Variables)
	}
	if r.Method != http.MethodPost || json.NewDecoder(http.MaxBytesReader(rw, r.Body, 1<<20)).Decode(&req) != nil || vars() != nil {
		rw.WriteHeader(http.StatusBadRequest)
		_ = json.NewEncoder(rw).Encode(map[string]any{"errors": []any{map[string]any{"message": "Must provide query string."}}})
		return
	}
	arg := func(m []string) string {
		if v, ok := req.Variables[m[1]]; ok {
			return fmt.Sprint(v)
		}
		return m[1]
	}
	answer := func(data any) { _ = json.NewEncoder(rw).Encode(map[string]any{"data": data}) }
	orders := apiOrders()
	switch {
	case strings.Contains(req.Query, "__schema"):
		answer(map[string]any{"__schema": gqlSchema()})
	case gqlCancelRE.MatchString(req.Query):
		id, _ := strconv.Atoi(arg(gqlCancelRE.FindStringSubmatch(req.Query)))
		for _, o := range orders {
			if o.ID == id {
				answer(map[string]any{"cancelOrder": map[string]any{"id": o.ID, "status": "cancelled", "refund": o.Total}})
				return
			}
		}
		_ = json.NewEncoder(rw).Encode(map[string]any{"data": map[string]any{"cancelOrder": nil}, "errors": []any{map[string]any{
			"message": fmt.Sprintf("Order %d not found", id), "path": []string{"cancelOrder"}, "locations": []any{map[string]int{"line": 1, "column": 12}},
			"extensions": map[string]string{"code": "NOT_FOUND"}}}})
	case gqlOrdersRE.MatchString(req.Query):
		status := arg(gqlOrdersRE.FindStringSubmatch(req.Query))
		var list []map[string]any
		for _, o := range orders {
			if strings.EqualFold(o.Status, status) {
				list = append(list, map[string]any{"id": o.ID, "customer": map[string]any{"name": o.Customer}, "product": o.Product, "quantity": o.Quantity, "total": o.Total})
			}
		}
		answer(map[string]any{"orders": list})
	case gqlOrderRE.MatchString(req.Query):
		id, _ := strconv.Atoi(arg(gqlOrderRE.FindStringSubmatch(req.Query)))
		for _, o := range orders {
			if o.ID == id {
				answer(map[string]any{"order": map[string]any{"id": o.ID, "status": o.Status, "total": o.Total,
					"customer": map[string]any{"name": o.Customer, "email": strings.ToLower(strings.ReplaceAll(o.Customer, " ", ".")) + "@example.com"},
					"lines":    []any{map[string]any{"product": o.Product, "quantity": o.Quantity, "total": o.Total}}}})
				return
			}
		}
		answer(map[string]any{"order": nil})
	default:
		field := "query"
		if m := regexp.MustCompile(`\{\s*(\w+)`).FindStringSubmatch(req.Query); m != nil {
			field = m[1]
		}
		_ = json.NewEncoder(rw).Encode(map[string]any{"errors": []any{map[string]any{
			"message": fmt.Sprintf("Cannot query field %q on type \"Query\".", field), "locations": []any{map[string]int{"line": 1, "column": 3}},
			"extensions": map[string]string{"code": "GRAPHQL_VALIDATION_FAILED"}}}})
	}
}

// gqlSchema is the endpoint's schema as GraphQL's introspection answers it.
func gqlSchema() map[string]any {
	named := func(kind, name string) map[string]any {
		return map[string]any{"kind": kind, "name": name, "ofType": nil}
	}
	nonNull := func(t map[string]any) map[string]any {
		return map[string]any{"kind": "NON_NULL", "name": nil, "ofType": t}
	}
	list := func(t map[string]any) map[string]any { return map[string]any{"kind": "LIST", "name": nil, "ofType": t} }
	scalar := func(name string) map[string]any { return nonNull(named("SCALAR", name)) }
	object := func(name string) map[string]any { return named("OBJECT", name) }
	arg := func(name string, t map[string]any) map[string]any {
		return map[string]any{"name": name, "description": nil, "type": t, "defaultValue": nil, "isDeprecated": false, "deprecationReason": nil}
	}
	field := func(name, desc string, t map[string]any, args ...map[string]any) map[string]any {
		if args == nil {
			args = []map[string]any{}
		}
		return map[string]any{"name": name, "description": desc, "args": args, "type": t, "isDeprecated": false, "deprecationReason": nil}
	}
	typ := func(name, desc string, fields ...map[string]any) map[string]any {
		return map[string]any{"kind": "OBJECT", "name": name, "description": desc, "fields": fields, "inputFields": nil, "interfaces": []any{}, "enumValues": nil, "possibleTypes": nil}
	}
	types := []any{
		typ("Query", "The shop's orders.",
			field("orders", "Orders with a status, oldest first.", nonNull(list(nonNull(object("Order")))), arg("status", scalar("String"))),
			field("order", "One order by its number.", object("Order"), arg("id", scalar("Int")))),
		typ("Mutation", "",
			field("cancelOrder", "Cancel an order and refund its total.", object("Cancellation"), arg("id", scalar("Int")))),
		typ("Order", "An order of one product.",
			field("id", "Order number.", scalar("Int")), field("customer", "", nonNull(object("Customer"))),
			field("product", "", scalar("String")), field("quantity", "", scalar("Int")), field("total", "Total in EUR.", scalar("Float")),
			field("status", "pending, shipped or cancelled.", scalar("String")), field("lines", "", nonNull(list(nonNull(object("OrderLine")))))),
		typ("Customer", "", field("name", "", scalar("String")), field("email", "", named("SCALAR", "String"))),
		typ("OrderLine", "", field("product", "", scalar("String")), field("quantity", "", scalar("Int")), field("total", "", scalar("Float"))),
		typ("Cancellation", "", field("id", "", scalar("Int")), field("status", "", scalar("String")), field("refund", "Refunded amount in EUR.", named("SCALAR", "Float"))),
	}
	for _, n := range []string{"Int", "Float", "String", "Boolean"} {
		types = append(types, map[string]any{"kind": "SCALAR", "name": n, "description": nil, "fields": nil, "inputFields": nil, "interfaces": nil, "enumValues": nil, "possibleTypes": nil, "specifiedByURL": nil})
	}
	return map[string]any{"description": nil, "queryType": map[string]string{"name": "Query"}, "mutationType": map[string]string{"name": "Mutation"},
		"subscriptionType": nil, "types": types, "directives": []any{}}
}

// makeChromium writes a launcher for Debian's chromium that adds
// --no-sandbox, for a server that starts the browser itself without a way to
// pass flags: as root (the recorder's usual user here) chromium refuses to
// start with its sandbox.
func (w *world) makeChromium() error {
	w.chromium = filepath.Join(w.root, "bin", "chromium")
	if err := os.MkdirAll(filepath.Dir(w.chromium), 0o755); err != nil {
		return err
	}
	return os.WriteFile(w.chromium, []byte("#!/bin/sh\nexec /usr/bin/chromium --no-sandbox \"$@\"\n"), 0o755)
}

var feedUpgrader = websocket.Upgrader{CheckOrigin: func(*http.Request) bool { return true }}

// feedHandler greets with the three latest order events, then answers each
// message: "ping" with "pong", a JSON {"subscribe": "orders"} with an
// acknowledgement and an event, anything else echoed back.
func feedHandler(rw http.ResponseWriter, r *http.Request) {
	c, err := feedUpgrader.Upgrade(rw, r, nil)
	if err != nil {
		return
	}
	defer c.Close()
	c.SetReadLimit(64 << 10)
	for _, o := range apiOrders()[:3] {
		ev, _ := json.Marshal(map[string]any{"event": "order." + o.Status, "order": o.ID, "customer": o.Customer, "total": o.Total, "at": fmt.Sprintf("2026-01-26T09:%02d:00Z", o.ID%60)})
		if c.WriteMessage(websocket.TextMessage, ev) != nil {
			return
		}
	}
	for {
		_ = c.SetReadDeadline(time.Now().Add(2 * time.Minute))
		kind, msg, err := c.ReadMessage()
		if err != nil {
			return
		}
		reply := msg
		var sub struct {
			Subscribe string `json:"subscribe"`
		}
		switch {
		case string(msg) == "ping":
			reply = []byte("pong")
		case json.Unmarshal(msg, &sub) == nil && sub.Subscribe != "":
			reply, _ = json.Marshal(map[string]any{"subscribed": sub.Subscribe, "events": []string{"order.created", "order.shipped", "order.cancelled"}})
		}
		if c.WriteMessage(kind, reply) != nil {
			return
		}
	}
}

// The shop's REST API and its OpenAPI description, for the OpenAPI gateway
// server: orders (list, one, create, change, delete), customers and daily
// totals over the same orders, errors as {"error": {"code", "message"}}.

type restShop struct {
	mu     sync.Mutex
	orders []apiOrder
	next   int
}

func newRESTShop() *restShop {
	o := apiOrders()
	return &restShop{orders: o, next: o[len(o)-1].ID + 1}
}

func (s *restShop) ServeHTTP(rw http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	defer s.mu.Unlock()
	rw.Header().Set("Content-Type", "application/json")
	reply := func(status int, v any) {
		rw.WriteHeader(status)
		_ = json.NewEncoder(rw).Encode(v)
	}
	fail := func(status int, code, msg string) {
		reply(status, map[string]any{"error": map[string]string{"code": code, "message": msg}})
	}
	path := strings.TrimSuffix(r.URL.Path, "/")
	q := r.URL.Query()
	find := func(idText string) int {
		id, err := strconv.Atoi(idText)
		if err != nil {
			return -1
		}
		for i, o := range s.orders {
			if o.ID == id {
				return i
			}
		}
		return -1
	}
	switch {
	case path == "/openapi.json":
		_, _ = rw.Write([]byte(shopOpenAPI))
	case path == "/api/v1/orders" && r.Method == http.MethodGet:
		limit, offset := 25, 0
		if v, err := strconv.Atoi(q.Get("limit")); err == nil {
			if v < 1 || v > 100 {
				fail(http.StatusBadRequest, "invalid_parameter", "limit must be between 1 and 100")
				return
			}
			limit = v
		}
		if v, err := strconv.Atoi(q.Get("offset")); err == nil && v >= 0 {
			offset = v
		}
		var list []apiOrder
		for _, o := range s.orders {
			if (q.Get("status") == "" || o.Status == q.Get("status")) && (q.Get("customer") == "" || strings.Contains(strings.ToLower(o.Customer), strings.ToLower(q.Get("customer")))) {
				list = append(list, o)
			}
		}
		total := len(list)
		list = list[min(offset, total):min(offset+limit, total)]
		reply(http.StatusOK, map[string]any{"orders": list, "total": total, "limit": limit, "offset": offset})
	case path == "/api/v1/orders" && r.Method == http.MethodPost:
		var in struct {
			Customer string `json:"customer"`
			Product  string `json:"product"`
			Quantity int    `json:"quantity"`
		}
		if err := json.NewDecoder(http.MaxBytesReader(rw, r.Body, 64<<10)).Decode(&in); err != nil || in.Customer == "" || in.Product == "" || in.Quantity < 1 {
			fail(http.StatusUnprocessableEntity, "invalid_order", "customer, product and a quantity of at least 1 are required")
			return
		}
		prices := map[string]float64{"Anvil": 249, "Rocket skates": 89.9, "Giant magnet": 19.9, "Bird seed": 4.5, "Earthquake pills": 12}
		price, ok := prices[in.Product]
		if !ok {
			fail(http.StatusUnprocessableEntity, "unknown_product", fmt.Sprintf("no product named %q", in.Product))
			return
		}
		o := apiOrder{ID: s.next, Customer: in.Customer, Product: in.Product, Quantity: in.Quantity, Total: float64(int(price*float64(in.Quantity)*100+0.5)) / 100, Status: "pending"}
		s.next++
		s.orders = append(s.orders, o)
		rw.Header().Set("Location", fmt.Sprintf("/api/v1/orders/%d", o.ID))
		reply(http.StatusCreated, o)
	case strings.HasPrefix(path, "/api/v1/orders/"):
		i := find(strings.TrimPrefix(path, "/api/v1/orders/"))
		if i < 0 {
			fail(http.StatusNotFound, "not_found", "no order "+strings.TrimPrefix(path, "/api/v1/orders/"))
			return
		}
		switch r.Method {
		case http.MethodGet:
			o := s.orders[i]
			reply(http.StatusOK, map[string]any{"id": o.ID, "customer": o.Customer, "product": o.Product, "quantity": o.Quantity, "total": o.Total, "status": o.Status,
				"history": []map[string]string{{"status": "pending", "at": fmt.Sprintf("2026-01-%02dT09:00:00Z", 1+(o.ID-1000)/3)}, {"status": o.Status, "at": fmt.Sprintf("2026-01-%02dT16:30:00Z", 2+(o.ID-1000)/3)}}})
		case http.MethodPatch:
			var in struct {
				Status string `json:"status"`
			}
			_ = json.NewDecoder(http.MaxBytesReader(rw, r.Body, 64<<10)).Decode(&in)
			switch in.Status {
			case "pending", "shipped", "cancelled":
				s.orders[i].Status = in.Status
				reply(http.StatusOK, s.orders[i])
			default:
				fail(http.StatusUnprocessableEntity, "invalid_status", "status must be pending, shipped or cancelled")
			}
		case http.MethodDelete:
			s.orders = append(s.orders[:i], s.orders[i+1:]...)
			rw.WriteHeader(http.StatusNoContent)
		default:
			fail(http.StatusMethodNotAllowed, "method_not_allowed", r.Method+" is not allowed here")
		}
	case path == "/api/v1/customers" && r.Method == http.MethodGet:
		type cust struct {
			Name   string  `json:"name"`
			Email  string  `json:"email"`
			Orders int     `json:"orders"`
			Spent  float64 `json:"spent"`
		}
		var out []*cust
		by := map[string]*cust{}
		for _, o := range s.orders {
			c := by[o.Customer]
			if c == nil {
				c = &cust{Name: o.Customer, Email: strings.ToLower(strings.ReplaceAll(o.Customer, " ", ".")) + "@example.com"}
				by[o.Customer] = c
				out = append(out, c)
			}
			c.Orders++
			c.Spent = float64(int((c.Spent+o.Total)*100+0.5)) / 100
		}
		reply(http.StatusOK, map[string]any{"customers": out})
	case path == "/api/v1/stats/daily" && r.Method == http.MethodGet:
		var days []map[string]any
		for d := 1; d <= 9; d++ {
			n, sum := 0, 0.0
			for _, o := range s.orders {
				if 1+(o.ID-1000)/3 == d {
					n++
					sum += o.Total
				}
			}
			days = append(days, map[string]any{"date": fmt.Sprintf("2026-01-%02d", d), "orders": n, "revenue": float64(int(sum*100+0.5)) / 100})
		}
		reply(http.StatusOK, map[string]any{"currency": "EUR", "days": days})
	default:
		fail(http.StatusNotFound, "not_found", "no route "+r.Method+" "+r.URL.Path)
	}
}

// shopOpenAPI describes restShop.
const shopOpenAPI = `{
  "openapi": "3.0.3",
  "info": {"title": "Acme Orders API", "version": "1.4.0", "description": "Orders, customers and daily totals of the Acme Orders shop."},
  "servers": [{"url": "http://127.0.0.1:4000"}],
  "tags": [{"name": "orders"}, {"name": "customers"}, {"name": "stats"}],
  "paths": {
    "/api/v1/orders": {
      "get": {"operationId": "listOrders", "tags": ["orders"], "summary": "List orders", "description": "Orders, oldest first, filtered by status or customer, paged.",
        "parameters": [
          {"name": "status", "in": "query", "schema": {"type": "string", "enum": ["pending", "shipped", "cancelled"]}, "description": "Only orders with this status"},
          {"name": "customer", "in": "query", "schema": {"type": "string"}, "description": "Part of the customer's name"},
          {"name": "limit", "in": "query", "schema": {"type": "integer", "minimum": 1, "maximum": 100, "default": 25}},
          {"name": "offset", "in": "query", "schema": {"type": "integer", "minimum": 0, "default": 0}}],
        "responses": {"200": {"description": "A page of orders", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/OrderPage"}}}}, "400": {"$ref": "#/components/responses/Error"}}},
      "post": {"operationId": "createOrder", "tags": ["orders"], "summary": "Place an order",
        "requestBody": {"required": true, "content": {"application/json": {"schema": {"$ref": "#/components/schemas/NewOrder"}}}},
        "responses": {"201": {"description": "The new order", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Order"}}}}, "422": {"$ref": "#/components/responses/Error"}}}
    },
    "/api/v1/orders/{id}": {
      "parameters": [{"name": "id", "in": "path", "required": true, "schema": {"type": "integer"}, "description": "Order number"}],
      "get": {"operationId": "getOrder", "tags": ["orders"], "summary": "One order with its status history",
        "responses": {"200": {"description": "The order", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Order"}}}}, "404": {"$ref": "#/components/responses/Error"}}},
      "patch": {"operationId": "updateOrderStatus", "tags": ["orders"], "summary": "Change an order's status",
        "requestBody": {"required": true, "content": {"application/json": {"schema": {"type": "object", "required": ["status"], "properties": {"status": {"type": "string", "enum": ["pending", "shipped", "cancelled"]}}}}}},
        "responses": {"200": {"description": "The changed order", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Order"}}}}, "404": {"$ref": "#/components/responses/Error"}, "422": {"$ref": "#/components/responses/Error"}}},
      "delete": {"operationId": "deleteOrder", "tags": ["orders"], "summary": "Delete an order", "responses": {"204": {"description": "Deleted"}, "404": {"$ref": "#/components/responses/Error"}}}
    },
    "/api/v1/customers": {
      "get": {"operationId": "listCustomers", "tags": ["customers"], "summary": "Customers with their order counts and spend",
        "responses": {"200": {"description": "Customers", "content": {"application/json": {"schema": {"type": "object", "properties": {"customers": {"type": "array", "items": {"$ref": "#/components/schemas/Customer"}}}}}}}}}
    },
    "/api/v1/stats/daily": {
      "get": {"operationId": "dailyStats", "tags": ["stats"], "summary": "Orders and revenue per day in January 2026",
        "responses": {"200": {"description": "Days", "content": {"application/json": {"schema": {"type": "object", "properties": {"currency": {"type": "string"}, "days": {"type": "array", "items": {"type": "object", "properties": {"date": {"type": "string", "format": "date"}, "orders": {"type": "integer"}, "revenue": {"type": "number"}}}}}}}}}}}
    }
  },
  "components": {
    "schemas": {
      "Order": {"type": "object", "properties": {"id": {"type": "integer"}, "customer": {"type": "string"}, "product": {"type": "string"}, "quantity": {"type": "integer"}, "total": {"type": "number", "description": "EUR"}, "status": {"type": "string", "enum": ["pending", "shipped", "cancelled"]}}},
      "NewOrder": {"type": "object", "required": ["customer", "product", "quantity"], "properties": {"customer": {"type": "string"}, "product": {"type": "string", "enum": ["Anvil", "Rocket skates", "Giant magnet", "Bird seed", "Earthquake pills"]}, "quantity": {"type": "integer", "minimum": 1}}},
      "OrderPage": {"type": "object", "properties": {"orders": {"type": "array", "items": {"$ref": "#/components/schemas/Order"}}, "total": {"type": "integer"}, "limit": {"type": "integer"}, "offset": {"type": "integer"}}},
      "Customer": {"type": "object", "properties": {"name": {"type": "string"}, "email": {"type": "string", "format": "email"}, "orders": {"type": "integer"}, "spent": {"type": "number"}}},
      "Error": {"type": "object", "properties": {"error": {"type": "object", "properties": {"code": {"type": "string"}, "message": {"type": "string"}}}}}
    },
    "responses": {"Error": {"description": "An error", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}}}
  }
}`

// makeAPISpecs writes the shop API's OpenAPI description into a folder of
// its own as acme-orders.yaml (JSON is YAML), each path naming the running
// API as its server, for a gateway that reads a folder of descriptions and
// takes the base address from each path's servers.
func (w *world) makeAPISpecs() error {
	var doc map[string]any
	if err := json.Unmarshal([]byte(shopOpenAPI), &doc); err != nil {
		return err
	}
	servers := []any{map[string]any{"url": "http://" + w.api}}
	doc["servers"] = servers
	for _, item := range doc["paths"].(map[string]any) {
		item.(map[string]any)["servers"] = servers
	}
	b, err := json.MarshalIndent(doc, "", "  ")
	if err != nil {
		return err
	}
	dir := filepath.Join(w.root, "api-specs")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(dir, "acme-orders.yaml"), b, 0o644); err != nil {
		return err
	}
	w.apiSpecs = dir
	return nil
}
