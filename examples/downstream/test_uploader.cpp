// The uploader's test: playtest plays the model (uploader.json: after `upload`, chunk_a and chunk_b
// in either order, then `complete`) against the component in this process. The racy build
// (-DUPLOADER_PLANT_RACE=ON) loses an update and never says `complete`: this same test fails there,
// printing the path, the shrunk stimuli and the line that replays it.
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <string_view>

#include "playtest/base/error.hpp"
#include "playtest/gtest.hpp"
#include "playtest/input/load.hpp"
#include "playtest/run/in_process_adapter.hpp"
#include "uploader.hpp"

namespace {

// The glue between the model's labels and the component: the only code a project writes.
class UploaderAdapter final : public playtest::InProcessAdapter {
 public:
  ~UploaderAdapter() override { on_finish(); }

 protected:
  void on_start() override {
    uploader_ = std::make_unique<Uploader>([this](std::string output) { emit(std::move(output)); });
  }
  void on_stimulus(std::string_view label) override {
    if (label == "upload")
      uploader_->upload();
    else if (label == "close")
      uploader_->close();
    else
      throw playtest::AdapterError("no such stimulus: " + std::string(label));
  }
  void on_finish() noexcept override { uploader_.reset(); }

 private:
  std::unique_ptr<Uploader> uploader_;
};

TEST(Uploader, EveryUploadCompletesWhicheverChunkFinishesFirst) {
  const playtest::TestGraph model = playtest::load_test_graph({.path = UPLOADER_MODEL});
  playtest::gtest::PlayOptions options{.strategy = "cover", .runs = 3, .model_name = "uploader.json"};
  options.run.max_steps = 40;  // no purpose: 40 steps of the coverage tour without a failure pass
  options.shrink_attempts = 3;
  EXPECT_TRUE(playtest::gtest::passes(
      model, [] { return std::make_unique<UploaderAdapter>(); }, options));
}

}  // namespace
