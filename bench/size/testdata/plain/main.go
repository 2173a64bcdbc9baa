// A program without reflective method lookup.
package main

import (
	"fmt"
	"os"
)

func main() { fmt.Println(os.Args) }
