package pagepack

import (
	"reflect"
	"regexp"
	"testing"
)

// refPackable is the pattern Pack ran before it looked with strings.Index:
// the reference packableLocs must agree with.
var refPackable = regexp.MustCompile(`(?s)<style>(.*?)</style>|<script( type="module")?>(.*?)</script>|<script ` + ShimAttr + `>(.*?)</script>|<script ` + FirstAttr + `>(.*?)</script>|<script ` + DeferAttr + `>(.*?)</script>|<style ` + DeferAttr + `>(.*?)</style>`)

var packableSeeds = []string{
	`<style>a{}</style><script>x()</script><script type="module">y()</script><script data-genui-shim>s()</script><script data-genui-first>f()</script>`,
	`<style>unclosed <script>ok()</script><style>b{}</style>`,
	`<script type="module">never closed <script>closed()</script>`,
	`<script type="modules">no</script><script data-genui-shimx>no</script><STYLE>no</STYLE><scriptx>no</script>`,
	`<<script>>a</script></script><style></style><s<style>c</style>`,
	`<script>"</script>" + 1</script><script type="module"></script>`,
	`<script data-genui-deferred>d()</script><script data-genui-deferredx>no</script><script>x()</script>`,
	`<style data-genui-deferred>.d{}</style><style data-genui-deferredx>no</style><style data-genui-deferred>unclosed<style>e{}</style>`,
}

// TestPackableLocsMatchTheRegexp: on hand-picked cases (unclosed elements,
// near-miss tags, empty bodies, tags inside bodies) the scanner finds what
// the regexp found.
func TestPackableLocsMatchTheRegexp(t *testing.T) {
	for _, in := range packableSeeds {
		if got, want := packableLocs(in), refPackable.FindAllStringSubmatchIndex(in, -1); !reflect.DeepEqual(got, want) {
			t.Errorf("packableLocs(%q)\n got %v\nwant %v", in, got, want)
		}
	}
}

// FuzzPackableLocsMatchTheRegexp compares the two on any page.
func FuzzPackableLocsMatchTheRegexp(f *testing.F) {
	for _, s := range packableSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		if got, want := packableLocs(in), refPackable.FindAllStringSubmatchIndex(in, -1); !reflect.DeepEqual(got, want) {
			t.Fatalf("packableLocs(%q)\n got %v\nwant %v", in, got, want)
		}
	})
}
