#include "suggest.hpp"

#include <vector>

#include "gpufleet/names.hpp"

namespace gpufleet::cli {
namespace {

std::string listed(const std::vector<std::string>& names) {
  std::string out;
  for (std::size_t i = 0; i < names.size(); ++i)
    out += (i == 0 ? "" : i + 1 == names.size() ? " or " : ", ") + names[i];
  return out;
}

std::vector<std::string> option_names(const CLI::App& app) {
  std::vector<std::string> names;
  for (const CLI::Option* o : app.get_options())
    for (const auto& n : o->get_lnames()) names.push_back("--" + n);
  return names;
}

std::vector<std::string> command_names(const CLI::App& app) {
  std::vector<std::string> names;
  for (const CLI::App* sub : const_cast<CLI::App&>(app).get_subcommands({}))
    names.push_back(sub->get_name());
  return names;
}

}  // namespace

std::string did_you_mean(const CLI::App& app, int argc, char** argv) {
  const CLI::App* command = &app;
  bool value_next = false;  // the previous word was an option that takes a value
  for (int i = 1; i < argc; ++i) {
    const std::string word = argv[i];
    if (value_next) {
      value_next = false;
      continue;
    }
    if (word.rfind("--", 0) == 0 && word.size() > 2) {
      const std::string name = word.substr(0, word.find('='));
      const CLI::Option* o = command->get_option_no_throw(name);
      if (!o) {
        const auto near = nearest_names(name, option_names(*command));
        return near.empty() ? ""
                            : command->get_name() + ": no option " + name + "; did you mean " +
                                  listed(near) + "?";
      }
      value_next = word.find('=') == std::string::npos && o->get_expected_min() > 0;
      continue;
    }
    if (word.rfind('-', 0) == 0) continue;
    const auto commands = command_names(*command);
    if (commands.empty()) continue;  // a positional argument (FILE, ID)
    const CLI::App* sub = nullptr;
    for (const CLI::App* s : const_cast<CLI::App*>(command)->get_subcommands({}))
      if (s->check_name(word)) sub = s;
    if (sub) {
      command = sub;
      continue;
    }
    const auto near = nearest_names(word, commands);
    return near.empty() ? "" : "no command \"" + word + "\"; did you mean " + listed(near) + "?";
  }
  return "";
}

}  // namespace gpufleet::cli
