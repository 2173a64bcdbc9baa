package app

import (
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/genui-dev/genui/viewspec"
)

// SpecSchema is the view specification's JSON Schema, as `genui spec
// schema` prints it.
func SpecSchema() []byte { return viewspec.Schema() }

// SpecVersion is the view specification's version.
const SpecVersion = viewspec.Version

// ValidateSpec checks the view spec in the file args name (standard input
// when none), writing "valid" to out or each problem, with its path, to
// errOut.
func ValidateSpec(args []string, in io.Reader, out, errOut io.Writer) error {
	var raw []byte
	var err error
	if len(args) > 0 {
		raw, err = os.ReadFile(args[0])
	} else {
		raw, err = io.ReadAll(io.LimitReader(in, viewspec.MaxSize+1))
	}
	if err != nil {
		return err
	}
	if _, errs := viewspec.Validate(raw); len(errs) > 0 {
		for _, e := range errs {
			fmt.Fprintln(errOut, e)
		}
		return errors.New("the view spec is not valid")
	}
	_, err = fmt.Fprintln(out, "valid")
	return err
}
