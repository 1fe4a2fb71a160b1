// Background jobs (Scheduler::take_background, scheduler.hpp): compute tasks that belong to no
// frame, e.g. a key frame's feature network on a second GPU. A job queues on its device with the
// frames' tasks (TaskRef ranks it after the newest released frame's tasks), pays the device's busy
// power, is counted per device in the results and shows on the device's trace track.
#include "sim/replay/dispatcher.hpp"

namespace coinfer::replay {

// Asked after every event; none once every frame is resolved (the run only waits then).
void Dispatcher::start_background(std::size_t u) {
  if (users_[u].resolved == users_[u].frames) return;
  for (auto& job : port(u).take_background(view(u, next_frame(users_[u])))) {
    const std::size_t newest = released_ == 0 ? 0 : released_ - 1;
    const double release_s = out_.frames[newest].release_s;
    if (jobs_.size() >= kNoJobRef) throw Error("replay: more than 2^32 - 2 background jobs");
    const TaskRef ref{newest,    kJobTask,  static_cast<std::uint32_t>(jobs_.size()),
                      release_s, release_s, now()};
    const std::size_t device = job.device;
    jobs_.push_back(std::move(job));
    job_users_.push_back(u);
    ++background_left_;
    devices_[device].ready.push(ref);
    try_start(device);
  }
}

// Called by on_exec_done once the device's busy time and executions are counted.
void Dispatcher::background_done(const TaskRef& ref, std::size_t device, double start_s) {
  const BackgroundRequest& job = jobs_[ref.job];
  const double t = now();
  DeviceCounts& stats = tally_.devices[device];
  ++stats.background_jobs;
  stats.background_busy_s += t - start_s;
  trace_.background(device, job.label, start_s, t);
  --background_left_;
  const std::size_t u = job_users_[ref.job];
  port(u).on_background_end(job.tag, view(u, next_frame(users_[u])));
}

}  // namespace coinfer::replay
