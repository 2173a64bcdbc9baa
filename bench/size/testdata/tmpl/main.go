// A program that executes a template: the linker must keep methods.
package main

import (
	"os"
	"text/template"
)

func main() {
	template.Must(template.New("t").Parse(os.Args[0])).Execute(os.Stdout, os.Args)
}
