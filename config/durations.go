package config

import "time"

// The file counts time in integer milliseconds (and uptime in hours) so a
// TOML user never writes a Go duration string; these turn them into
// time.Duration for the packages that use them. 0 keeps its meaning in the
// file (no timeout, never).

func ms(n int) time.Duration { return time.Duration(n) * time.Millisecond }

func (s Server) ReadHeaderTimeout() time.Duration { return ms(s.ReadHeaderTimeoutMS) }
func (s Server) ReadTimeout() time.Duration       { return ms(s.ReadTimeoutMS) }
func (s Server) WriteTimeout() time.Duration      { return ms(s.WriteTimeoutMS) }
func (s Server) IdleTimeout() time.Duration       { return ms(s.IdleTimeoutMS) }

func (r Render) RenderTimeout() time.Duration { return ms(r.RenderTimeoutMS) }
func (r Render) QueueTimeout() time.Duration  { return ms(r.QueueTimeoutMS) }

func (l Lifecycle) DrainTimeout() time.Duration  { return ms(l.DrainTimeoutMS) }
func (l Lifecycle) WatchDebounce() time.Duration { return ms(l.WatchDebounceMS) }
func (l Lifecycle) MemoryCheck() time.Duration   { return ms(l.MemoryCheckMS) }

// MaxUptime is max_uptime_hours as a duration; 0 means never rotate by age.
func (l Lifecycle) MaxUptime() time.Duration {
	return time.Duration(l.MaxUptimeHours * float64(time.Hour))
}

// MaxMemoryBytes is max_memory_mb in bytes; 0 means no limit.
func (l Lifecycle) MaxMemoryBytes() int64 { return l.MaxMemoryMB << 20 }

func (r Recovery) BackoffInitial() time.Duration { return ms(r.BackoffInitialMS) }
func (r Recovery) BackoffMax() time.Duration     { return ms(r.BackoffMaxMS) }
func (r Recovery) HealthyReset() time.Duration   { return ms(r.HealthyResetMS) }

// MemoryLimitBytes is memory_limit_mb in bytes: 0 means derived from the
// container or machine, -1 none.
func (r Runtime) MemoryLimitBytes() int64 {
	if r.MemoryLimitMB < 0 {
		return -1
	}
	return r.MemoryLimitMB << 20
}
