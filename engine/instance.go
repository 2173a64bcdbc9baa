package engine

import (
	"crypto/rand"
	"encoding/hex"
)

// instanceID is this process's genui instance: random, made once per
// process. /state reports it (contract.State.Instance) and DIR/genui.lock
// names it, so a workbench that watched one genui can tell it from another
// process that took its port later (ports are reused; any local user can
// bind a loopback port).
var instanceID = func() string {
	var b [12]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}()

// InstanceID is this process's genui instance id.
func InstanceID() string { return instanceID }
