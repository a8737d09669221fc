package lifecycle

import (
	"errors"
	"fmt"
	"strconv"
)

// State is where a worker slot is in its life. The zero value is Booting: a
// slot starts by booting an isolate.
type State int

const (
	// Booting: an isolate is being created and the server bundle run in it.
	Booting State = iota
	// Active: the isolate serves renders.
	Active
	// Draining: the isolate takes no new renders and finishes the in-flight
	// ones, up to the drain timeout.
	Draining
	// Stopped: the isolate is gone; the slot is free for a replacement.
	Stopped
	// Failed: the isolate could not boot or died outside a render. The slot
	// waits out its backoff, or stays Failed for good once the recovery policy
	// gives up (see Recovery.GiveUp), until a manual restart.
	Failed
	// Degraded: the isolate is up but failing where its peers are not (a
	// poisoned module state) or failing its health checks. It takes no new
	// renders; a replacement boots surge-first and it is then drained.
	Degraded
)

// AllStates lists every State in declaration order, for tests and for metric
// collectors that publish one series per state.
var AllStates = []State{Booting, Active, Draining, Stopped, Failed, Degraded}

var stateNames = [...]string{
	Booting:  "BOOTING",
	Active:   "ACTIVE",
	Draining: "DRAINING",
	Stopped:  "STOPPED",
	Failed:   "FAILED",
	Degraded: "DEGRADED",
}

func (s State) valid() bool { return s >= 0 && int(s) < len(stateNames) }

// String returns the upper-case name used in DESIGN.md, logs and `bext ps`
// ("BOOTING", "ACTIVE", ...), or "State(n)" for a value outside the enum.
func (s State) String() string {
	if !s.valid() {
		return "State(" + strconv.Itoa(int(s)) + ")"
	}
	return stateNames[s]
}

// MarshalText encodes s as its String name, so a State is a JSON string in
// /__bext/workers. A value outside the enum is an error rather than a made-up
// name.
func (s State) MarshalText() ([]byte, error) {
	if !s.valid() {
		return nil, fmt.Errorf("lifecycle: cannot marshal unknown %v", s)
	}
	return []byte(stateNames[s]), nil
}

// UnmarshalText is the inverse of MarshalText; it accepts only the exact
// upper-case names. Clients such as `bext ps` decode the admin JSON with it.
func (s *State) UnmarshalText(b []byte) error {
	for i, name := range stateNames {
		if string(b) == name {
			*s = State(i)
			return nil
		}
	}
	return fmt.Errorf("lifecycle: unknown state %q", b)
}

// Serving reports whether a worker in state s may be handed new renders.
// Only Active serves: a Draining worker finishes what it has and takes nothing.
func (s State) Serving() bool { return s == Active }

// ErrIllegalTransition is wrapped by every error Check returns. An illegal
// transition is a bug in the caller, never a runtime condition to retry.
var ErrIllegalTransition = errors.New("lifecycle: illegal transition")

// legal is the transition table of DESIGN.md "Worker states", indexed
// [from][to]. Anything not marked, including every X->X, is illegal: a state
// that does not change is not a transition and must not be recorded as one.
var legal = [len(stateNames)][len(stateNames)]bool{
	Booting: {
		Active:  true, // ready
		Failed:  true, // boot error
		Stopped: true, // shutdown while booting
	},
	Active: {
		Draining: true, // rotation: threshold, file change, manual
		Stopped:  true, // request-induced crash (replaced at once), shutdown
		Degraded: true, // unhealthy: failing above its peers, or its health checks
	},
	Degraded: {
		Draining: true, // its replacement is ACTIVE
		Stopped:  true, // crash during a health check, shutdown
	},
	Draining: {
		Stopped: true, // in-flight done or drain timeout
	},
	Failed: {
		Booting: true, // backoff elapsed, or manual restart after giving up
		Stopped: true, // shutdown
	},
	Stopped: {
		Booting: true, // a replacement boots in the same slot
	},
}

// Check returns nil if from->to is a legal transition, otherwise an error
// that wraps ErrIllegalTransition and names both states. States outside the
// enum are never legal.
func Check(from, to State) error {
	if from.valid() && to.valid() && legal[from][to] {
		return nil
	}
	return fmt.Errorf("%w: %v -> %v", ErrIllegalTransition, from, to)
}

// Reason says why a transition or rotation happened. The set is closed, so a
// Reason is safe as a metric label value.
type Reason string

const (
	ReasonNone         Reason = ""
	ReasonStart        Reason = "start"         // first boot of a slot when the pool starts
	ReasonReady        Reason = "ready"         // BOOTING->ACTIVE
	ReasonMaxRequests  Reason = "max_requests"  // served >= RequestThreshold
	ReasonMaxMemory    Reason = "max_memory"    // attributed heap > MaxMemoryBytes
	ReasonMaxUptime    Reason = "max_uptime"    // uptime >= MaxUptime
	ReasonCrash        Reason = "crash"         // request-induced: timeout, stack overflow, panic
	ReasonFileChange   Reason = "file_change"   // watch mode rebuilt the bundle
	ReasonManual       Reason = "manual"        // admin route or `bext workers restart`
	ReasonBootFailure  Reason = "boot_failure"  // BOOTING->FAILED
	ReasonBackoff      Reason = "backoff"       // FAILED->BOOTING after the backoff elapsed
	ReasonGaveUp       Reason = "gave_up"       // FAILED for good
	ReasonDrained      Reason = "drained"       // DRAINING->STOPPED, in-flight done
	ReasonDrainTimeout Reason = "drain_timeout" // DRAINING->STOPPED, in-flight interrupted
	ReasonShutdown     Reason = "shutdown"      // server stopping
	ReasonUnhealthy    Reason = "unhealthy"     // ACTIVE->DEGRADED, and its rotation
)

// RotationReasons are the reasons a worker is replaced while the slot stays
// healthy; a rotations counter is labelled with exactly these.
var RotationReasons = []Reason{
	ReasonMaxRequests, ReasonMaxMemory, ReasonMaxUptime,
	ReasonCrash, ReasonFileChange, ReasonManual, ReasonUnhealthy,
}

// Health is a worker's health as /__bext/workers, bext ps and the metrics
// show it: unknown until it has rendered or been checked, unhealthy while
// its health checks fail or it is DEGRADED.
type Health string

const (
	HealthUnknown   Health = "unknown"
	HealthHealthy   Health = "healthy"
	HealthUnhealthy Health = "unhealthy"
)

// AllHealth lists every Health, for metric collectors.
var AllHealth = []Health{HealthUnknown, HealthHealthy, HealthUnhealthy}
