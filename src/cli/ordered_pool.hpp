// Work on N threads whose answers come out in the order it went in: `parse --jsonl
// --jobs N` prints each line's result in input order, byte for byte what one thread
// prints, and as soon as it and every earlier one are done (a batch fed through a pipe
// still gets its answers as it goes).
//
// The submitting thread hands tasks in and blocks while `window` of them are unfinished,
// so memory stays bounded whatever the input's length. The thread that finishes the
// oldest unemitted task emits it, and every finished one after it, under one lock: no
// separate writer thread, and no answer waits for the next input to arrive. An exception
// from work or emit (stdout lost) stops the pool; `submit` and `finish` rethrow it.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <deque>
#include <exception>
#include <functional>
#include <map>
#include <mutex>
#include <thread>
#include <utility>
#include <vector>

namespace toolgram::cli {

template <class Task, class Answer>
class OrderedPool {
public:
    OrderedPool(unsigned threads, std::size_t window, std::function<Answer(Task&)> work, std::function<void(Answer&)> emit)
        : window_(window < 1 ? 1 : window), work_(std::move(work)), emit_(std::move(emit)) {
        for (unsigned t = 0; t < (threads < 1 ? 1 : threads); ++t) workers_.emplace_back([this] { run(); });
    }
    OrderedPool(const OrderedPool&) = delete;
    OrderedPool& operator=(const OrderedPool&) = delete;
    ~OrderedPool() { stop(); }

    void submit(Task task) {
        std::unique_lock lock(mutex_);
        room_.wait(lock, [&] { return failure_ || submitted_ - emitted_ < window_; });
        if (failure_) std::rethrow_exception(failure_);
        queue_.emplace_back(submitted_++, std::move(task));
        ready_.notify_one();
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

    const std::size_t window_;
    std::function<Answer(Task&)> work_;
    std::function<void(Answer&)> emit_;
    std::mutex mutex_;
    std::condition_variable ready_, room_;
    std::deque<std::pair<std::size_t, Task>> queue_;
    std::map<std::size_t, Answer> done_;
    std::size_t submitted_ = 0, emitted_ = 0;
    bool closing_ = false;
    std::exception_ptr failure_;
    std::vector<std::thread> workers_;
};

}  // namespace toolgram::cli
