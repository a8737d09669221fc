package config

import (
	"testing"
	"time"
)

func TestDurationHelpers(t *testing.T) {
	c := Default()
	c.Render.Lifecycle.MaxUptimeHours = 1.5
	for name, tc := range map[string][2]time.Duration{
		"RenderTimeout":     {c.Render.RenderTimeout(), 5 * time.Second},
		"QueueTimeout":      {c.Render.QueueTimeout(), time.Second},
		"ReadHeaderTimeout": {c.Server.ReadHeaderTimeout(), 5 * time.Second},
		"DrainTimeout":      {c.Render.Lifecycle.DrainTimeout(), 5 * time.Second},
		"MaxUptime":         {c.Render.Lifecycle.MaxUptime(), 90 * time.Minute},
		"BackoffMax":        {c.Render.Lifecycle.Recovery.BackoffMax(), time.Minute},
	} {
		if tc[0] != tc[1] {
			t.Errorf("%s = %v, want %v", name, tc[0], tc[1])
		}
	}
	if got := c.Render.Lifecycle.MaxMemoryBytes(); got != 512<<20 {
		t.Errorf("MaxMemoryBytes = %d, want %d", got, 512<<20)
	}
}
