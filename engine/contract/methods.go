package contract

import "reflect"

// Method declares one method of API as every front end sees it: its name
// (the Go method), its HTTP route on the side server, what it takes and
// returns, and the error codes it answers with. Methods is the one table:
// the side server registers its API routes from it (engine/httpapi), the
// HTTP client's requests are checked against it (engine/apiclient), and
// tests require a row for every method of API, a handler for every row
// and a conformance case calling every method (engine/apitest). Adding a
// method to API without a row, a route, a client method or a case fails a
// test, not a user at run time with a 404.
type Method struct {
	// Name is the method's name in API.
	Name string
	// Route is the side server's pattern, "VERB /path/{param}" (net/http's
	// ServeMux syntax). Two methods may share a route when Query tells them
	// apart (UI and ReadableUI).
	Route string
	// Query is what the client adds to the route's path ("readable=1"),
	// when anything.
	Query string
	// Request is the type of the method's argument after ctx (nil when it
	// takes none); Response the type of its result besides the error (nil
	// when it returns only an error).
	Request, Response reflect.Type
	// Errors are the codes the method fails with, CommonErrors included.
	Errors []ErrorCode
}

// CommonErrors are the codes any method may fail with: a bug, a caller's
// deadline or cancellation, and (for the HTTP client) a genui that is not
// reachable.
var CommonErrors = []ErrorCode{CodeInternal, CodeTimeout, CodeCancelled, CodeUnavailable}

// errs is CommonErrors and the method's own codes.
func errs(own ...ErrorCode) []ErrorCode {
	return append(append([]ErrorCode{}, CommonErrors...), own...)
}

func typ[T any]() reflect.Type { return reflect.TypeFor[T]() }

// Methods is every method of API, in the order of the interface.
var Methods = []Method{
	{Name: "State", Route: "GET /state", Response: typ[State](), Errors: errs()},
	{Name: "Variables", Route: "GET /variables", Query: "format=json", Response: typ[Variables](), Errors: errs()},
	{Name: "Tools", Route: "GET /api/tools", Response: typ[[]ToolInfo](), Errors: errs()},
	{Name: "UI", Route: "GET /api/tools/{name}/ui", Request: typ[string](), Response: typ[UIView](),
		Errors: errs(CodeUnknownTool, CodeUpstreamUnavailable, CodeUpstreamError)},
	{Name: "Inspect", Route: "GET /api/tools/{name}", Request: typ[string](), Response: typ[Inspection](),
		Errors: errs(CodeUnknownTool)},
	{Name: "Refine", Route: "POST /api/tools/{name}/refine", Request: typ[RefineRequest](), Response: typ[UIChange](),
		Errors: errs(CodeUnknownTool, CodeInvalidArgument, CodeNotUnderstood)},
	{Name: "Regenerate", Route: "POST /api/tools/{name}/regenerate", Request: typ[RegenerateRequest](), Response: typ[UIChange](),
		Errors: errs(CodeUnknownTool, CodeInvalidArgument)},
	{Name: "DropRefinement", Route: "POST /api/tools/{name}/refinements/drop", Request: typ[DropRefinementRequest](), Response: typ[UIChange](),
		Errors: errs(CodeUnknownTool, CodeInvalidArgument)},
	{Name: "ReadableUI", Route: "GET /api/tools/{name}/ui", Query: "readable=1", Request: typ[string](), Response: typ[UIView](),
		Errors: errs(CodeUnknownTool, CodeUpstreamUnavailable, CodeUpstreamError)},
	{Name: "CallTool", Route: "POST /api/tool/{name}", Request: typ[CallRequest](), Response: typ[CallResult](),
		Errors: errs(CodeUnknownTool, CodeInvalidArgument, CodeUpstreamUnavailable, CodeUpstreamError)},
	{Name: "CancelCall", Route: "POST /api/calls/{id}/cancel", Request: typ[string](), Errors: errs(CodeNotFound)},
	{Name: "RefreshTools", Route: "POST /api/refresh", Response: typ[ToolDiff](), Errors: errs(CodeUpstreamError)},
	{Name: "Preview", Route: "GET /api/tools/{name}/preview", Request: typ[string](), Response: typ[PreviewInfo](),
		Errors: errs(CodeUnknownTool)},
	{Name: "PendingEvents", Route: "GET /api/queue", Response: typ[[]QueuedEvent](), Errors: errs()},
	{Name: "History", Route: "GET /api/history", Request: typ[HistoryQuery](), Response: typ[HistoryPage](),
		Errors: errs(CodeInvalidArgument)},
	{Name: "HistoryEntry", Route: "GET /api/history/{id}", Request: typ[int64](), Response: typ[HistoryEntry](),
		Errors: errs(CodeInvalidArgument, CodeNotFound)},
	{Name: "RerunCall", Route: "POST /api/history/{id}/rerun", Request: typ[RerunRequest](), Response: typ[Rerun](),
		Errors: errs(CodeInvalidArgument, CodeNotFound, CodeUpstreamUnavailable, CodeUpstreamError)},
	{Name: "CompareCalls", Route: "POST /api/history/compare", Request: typ[CompareRequest](), Response: typ[ResultDiff](),
		Errors: errs(CodeInvalidArgument, CodeNotFound)},
	{Name: "Checks", Route: "GET /api/checks", Response: typ[[]Check](), Errors: errs()},
	{Name: "AddCheck", Route: "POST /api/checks", Request: typ[AddCheckRequest](), Response: typ[Check](),
		Errors: errs(CodeInvalidArgument, CodeNotFound)},
	{Name: "RunChecks", Route: "POST /api/checks/run", Request: typ[RunChecksRequest](), Response: typ[CheckReport](),
		Errors: errs(CodeNotFound, CodeUpstreamUnavailable)},
	{Name: "Subscribe", Route: "GET /events", Response: typ[<-chan Event](), Errors: errs()},
	{Name: "RecentTraffic", Route: "GET /api/traffic", Request: typ[TrafficQuery](), Response: typ[TrafficPage](),
		Errors: errs(CodeInvalidArgument)},
	{Name: "PendingRequests", Route: "GET /api/requests", Response: typ[[]PendingRequest](), Errors: errs()},
	{Name: "AnswerRequest", Route: "POST /api/requests/{id}/answer", Request: typ[Answer](),
		Errors: errs(CodeInvalidArgument, CodeNotFound, CodeConflict)},
	{Name: "DraftSamplingAnswer", Route: "POST /api/requests/{id}/draft", Request: typ[string](), Response: typ[SamplingDraft](),
		Errors: errs(CodeInvalidArgument, CodeNotFound)},
	{Name: "Roots", Route: "GET /api/roots", Response: typ[[]Root](), Errors: errs()},
	{Name: "SetRoots", Route: "PUT /api/roots", Request: typ[[]Root](), Response: typ[[]Root](),
		Errors: errs(CodeInvalidArgument)},
	{Name: "Resources", Route: "GET /api/upstream/resources", Response: typ[[]Resource](),
		Errors: errs(CodeUpstreamUnavailable, CodeUpstreamError)},
	{Name: "ResourceTemplates", Route: "GET /api/upstream/resource-templates", Response: typ[[]ResourceTemplate](),
		Errors: errs(CodeUpstreamUnavailable, CodeUpstreamError)},
	{Name: "ReadResource", Route: "POST /api/upstream/resources/read", Request: typ[string](), Response: typ[ResourceContents](),
		Errors: errs(CodeInvalidArgument, CodeUnknownTool, CodeUpstreamUnavailable, CodeUpstreamError)},
	{Name: "SubscribeResource", Route: "POST /api/upstream/resources/subscribe", Request: typ[string](),
		Errors: errs(CodeInvalidArgument, CodeUpstreamUnavailable, CodeUpstreamError)},
	{Name: "UnsubscribeResource", Route: "POST /api/upstream/resources/unsubscribe", Request: typ[string](),
		Errors: errs(CodeInvalidArgument, CodeUpstreamUnavailable, CodeUpstreamError)},
	{Name: "Prompts", Route: "GET /api/upstream/prompts", Response: typ[[]Prompt](),
		Errors: errs(CodeUpstreamUnavailable, CodeUpstreamError)},
	{Name: "GetPrompt", Route: "POST /api/upstream/prompts/get", Request: typ[GetPromptRequest](), Response: typ[PromptResult](),
		Errors: errs(CodeInvalidArgument, CodeUpstreamUnavailable, CodeUpstreamError)},
	{Name: "Ping", Route: "POST /api/upstream/ping", Response: typ[PingResult](),
		Errors: errs(CodeUpstreamUnavailable, CodeUpstreamError)},
	{Name: "SetLogLevel", Route: "POST /api/upstream/log-level", Request: typ[string](),
		Errors: errs(CodeInvalidArgument, CodeUpstreamUnavailable, CodeUpstreamError)},
	{Name: "Complete", Route: "POST /api/upstream/complete", Request: typ[CompleteRequest](), Response: typ[Completion](),
		Errors: errs(CodeInvalidArgument, CodeUpstreamUnavailable, CodeUpstreamError)},
	{Name: "Lint", Route: "GET /api/lint", Response: typ[LintReport](),
		Errors: errs(CodeUpstreamUnavailable, CodeUpstreamError)},
	{Name: "SignIn", Route: "POST /api/upstream/sign-in", Response: typ[AuthState](), Errors: errs()},
	{Name: "SignOut", Route: "POST /api/upstream/sign-out", Response: typ[AuthState](), Errors: errs()},
}
