// Work on N threads whose answers come out in the order it went in: `parse --jsonl
// --jobs N` prints each line's result in input order, byte for byte what one thread
// prints, and as soon as it and every earlier one are done (a batch fed through a pipe
// still gets its answers as it goes).
//
// The submitting thread hands tasks in and blocks while `window` of them are unemitted,
// or while their weights (`weigh`: a line's bytes) would pass `max_weight` with the new
// one (a task heavier than that alone still goes in when nothing else is in flight), so
// memory stays bounded whatever the input's length and however many threads run. The thread that finishes the
// oldest unemitted task emits it, and every finished one after it, under one lock: no
// separate writer thread, and no answer waits for the next input to arrive. An exception
// from work or emit (stdout lost) stops the pool; `submit` and `finish` rethrow it.
#pragma once

#include <algorithm>
#include <condition_variable>
#include <cstddef>
#include <deque>
#include <exception>
#include <functional>
#include <limits>
#include <map>
#include <mutex>
#include <thread>
#include <utility>
#include <vector>

namespace toolgram::cli {

template <class Task, class Answer>
class OrderedPool {
public:
    OrderedPool(unsigned threads, std::size_t window, std::function<Answer(Task&)> work, std::function<void(Answer&)> emit,
                std::function<std::size_t(const Task&)> weigh = nullptr,
                std::size_t max_weight = std::numeric_limits<std::size_t>::max())
        : window_(window < 1 ? 1 : window), max_weight_(max_weight), work_(std::move(work)), emit_(std::move(emit)),
          weigh_(std::move(weigh)) {
        for (unsigned t = 0; t < (threads < 1 ? 1 : threads); ++t) workers_.emplace_back([this] { run(); });
    }
    OrderedPool(const OrderedPool&) = delete;
    OrderedPool& operator=(const OrderedPool&) = delete;
    ~OrderedPool() { stop(); }

    void submit(Task task) {
        const std::size_t weight = weigh_ ? weigh_(task) : 0;
        std::unique_lock lock(mutex_);
        room_.wait(lock, [&] {
            if (failure_) return true;
            if (submitted_ == emitted_) return true;  // nothing in flight: even the heaviest goes
            return submitted_ - emitted_ < window_ && weight_ <= max_weight_ && weight <= max_weight_ - weight_;
        });
        if (failure_) std::rethrow_exception(failure_);
        weight_ += weight;
        peak_weight_ = std::max(peak_weight_, weight_);
        weights_.emplace(submitted_, weight);
        queue_.emplace_back(submitted_++, std::move(task));
        ready_.notify_one();
    }

    // The most weight in flight at once so far (tests check the bound).
    std::size_t peak_weight() const {
        std::lock_guard lock(mutex_);
        return peak_weight_;
    }

    // Waits for every answer to be emitted.
    void finish() {
        {
            std::unique_lock lock(mutex_);
            room_.wait(lock, [&] { return failure_ || emitted_ == submitted_; });
        }
        stop();
        if (failure_) std::rethrow_exception(failure_);
    }

private:
    void stop() {
        {
            std::lock_guard lock(mutex_);
            closing_ = true;
        }
        ready_.notify_all();
        for (auto& w : workers_)
            if (w.joinable()) w.join();
    }

    void run() {
        for (;;) {
            std::pair<std::size_t, Task> item;
            {
                std::unique_lock lock(mutex_);
                ready_.wait(lock, [&] { return closing_ || failure_ || !queue_.empty(); });
                if (failure_ || queue_.empty()) return;  // closing with nothing left
                item = std::move(queue_.front());
                queue_.pop_front();
            }
            try {
                Answer answer = work_(item.second);
                std::lock_guard lock(mutex_);
                done_.emplace(item.first, std::move(answer));
                // Whoever finishes the oldest emits the run of finished answers from it.
                for (auto it = done_.find(emitted_); it != done_.end(); it = done_.find(emitted_)) {
                    emit_(it->second);
                    done_.erase(it);
                    // The task's weight is released when its answer is gone, not when its
                    // work ends: an answer waiting for an earlier one still holds memory.
                    const auto w = weights_.find(emitted_);
                    weight_ -= w->second;
                    weights_.erase(w);
                    ++emitted_;
                }
            } catch (...) {
                std::lock_guard lock(mutex_);
                if (!failure_) failure_ = std::current_exception();
                ready_.notify_all();
            }
            room_.notify_all();
        }
    }

    const std::size_t window_, max_weight_;
    std::function<Answer(Task&)> work_;
    std::function<void(Answer&)> emit_;
    std::function<std::size_t(const Task&)> weigh_;
    mutable std::mutex mutex_;
    std::map<std::size_t, std::size_t> weights_;  // unemitted tasks' weights, by sequence number
    std::size_t weight_ = 0, peak_weight_ = 0;
    std::condition_variable ready_, room_;
    std::deque<std::pair<std::size_t, Task>> queue_;
    std::map<std::size_t, Answer> done_;
    std::size_t submitted_ = 0, emitted_ = 0;
    bool closing_ = false;
    std::exception_ptr failure_;
    std::vector<std::thread> workers_;
};

}  // namespace toolgram::cli
