package gen

import (
	"regexp"
	"testing"
)

// TestLazyRegexpsCompile: the patterns compiled on first use (lazyRegexp)
// compile; a broken one would otherwise panic only when its path first runs.
func TestLazyRegexpsCompile(t *testing.T) {
	for i, re := range []func() *regexp.Regexp{
		reActiveTag,
		reBodyEnd,
		reCSSURL,
		reConnect,
		reDeclaredVersion,
		reDynamic,
		reExportFrom,
		reFence,
		reFenced,
		reFieldWords,
		reFileUnsafe,
		reFullHeight,
		reHTMLEnd,
		reInjection,
		reIntentItem,
		reIntentWord,
		reLongRunning,
		reMarker,
		reNewApp,
		reOnAttr,
		rePageOutcomes,
		rePageSpec,
		reReset,
		reResult,
		reScriptElem,
		reSecretLike,
		reShimElement,
		reStaticImport,
		reTitle,
		reViewportHeight,
		reVoidHref,
		reVoidURL,
	} {
		if re() == nil {
			t.Errorf("pattern %d is nil", i)
		}
	}
}
