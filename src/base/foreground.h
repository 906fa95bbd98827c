// Foreground: requests a user waits for (a timeline tile) against background
// passes that share the cores with them. Lowering the background threads'
// priority (LowerThreadPriority) gives a request a core, but the passes on
// the other cores still compete for caches and memory bandwidth: a tile
// drawn from the file took up to twice as long beside them. So while a
// Foreground exists, background threads stop at their next GiveWayPoint().
#pragma once

namespace plx {

/// Held for the length of one request a user waits for; the thread that
/// holds it is not background meanwhile, whatever it was.
class Foreground {
 public:
  Foreground();
  ~Foreground();
  Foreground(const Foreground&) = delete;
  Foreground& operator=(const Foreground&) = delete;

 private:
  bool was_background_;
};

/// Marks the calling thread as background work (LowerThreadPriority and
/// the workers of a pool that gives way do this): its GiveWayPoint()s wait.
void MarkBackground(bool background);
bool IsBackground();

/// Where background work may pause (between chunks): returns at once on
/// other threads or when no Foreground exists; else when the last one ends,
/// or after 100 ms at most, so work that a foreground request itself waits
/// for still advances.
void GiveWayPoint();

/// Foregrounds that exist now (tests).
int ForegroundsRunning();

}  // namespace plx
