#include "completion.hpp"

#include <algorithm>
#include <functional>
#include <sstream>
#include <set>
#include <vector>

#include "catalog_files.hpp"
#include "exit_codes.hpp"
#include "gpufleet/analyzer.hpp"
#include "json.hpp"

namespace gpufleet::cli {
namespace {

// One option or positional argument as the generated texts need it.
struct OptionDoc {
  std::vector<std::string> names;  // "--json", "-h"; empty for a positional
  std::string metavar;             // TEXT, N, FILE, DIR, SHELL, ... (empty for a flag)
  std::vector<std::string> values;  // allowed values, where a check(CLI::IsMember) names them
  std::string description, default_value, group;
  bool flag = false, repeat = false;
  bool file() const { return metavar == "FILE"; }
  bool dir() const { return metavar == "DIR"; }
};

struct CommandDoc {
  std::string path;  // "" for the program, "catalog show" for a nested command
  std::string name, description, footer;  // footer: the examples of its --help
  std::vector<OptionDoc> options, positionals;
  std::vector<CommandDoc> commands;
};

// The allowed values of a CLI::IsMember check, whose description reads "{a,b,c}".
std::vector<std::string> allowed_values(const CLI::Option& option) {
  auto& o = const_cast<CLI::Option&>(option);  // CLI11 2.1 has no const get_validator
  for (int i = 0;; ++i) {
    const CLI::Validator* v = nullptr;
    try {
      v = o.get_validator(i);
    } catch (const CLI::OptionNotFound&) {
      return {};
    }
    const std::string d = v->get_description();
    if (d.size() < 2 || d.front() != '{' || d.back() != '}') continue;
    std::vector<std::string> out;
    std::string item;
    for (char c : d.substr(1, d.size() - 2)) {
      if (c == ',') {
        out.push_back(item);
        item.clear();
      } else {
        item += c;
      }
    }
    out.push_back(item);
    return out;
  }
}

OptionDoc describe(const CLI::Option& o) {
  OptionDoc d;
  for (const auto& n : o.get_lnames()) d.names.push_back("--" + n);
  for (const auto& n : o.get_snames()) d.names.push_back("-" + n);
  d.description = o.get_description();
  d.default_value = o.get_default_str();
  d.group = o.get_group();
  d.flag = o.get_expected_max() == 0;  // add_flag sets expected(0)
  d.repeat = o.get_expected_max() > 1;
  d.values = allowed_values(o);
  if (!d.flag) {
    std::string type = o.get_type_name();
    type = type.substr(0, type.find(':'));
    if (type == "FLOAT" || type == "INT" || type == "UINT") type = "N";
    if (o.get_positional()) type = o.get_name(true);  // FILE, ID, SHELL, SECTION
    if (type.empty()) type = "VALUE";
    d.metavar = type;
  }
  return d;
}

CommandDoc describe(const CLI::App& app, const std::string& path) {
  CommandDoc c;
  c.path = path;
  c.name = app.get_name();
  c.description = app.get_description();
  c.footer = app.get_footer();
  for (const CLI::Option* o : app.get_options()) {
    if (o->get_positional() && !o->nonpositional()) {
      c.positionals.push_back(describe(*o));
    } else {
      c.options.push_back(describe(*o));
    }
  }
  for (const CLI::App* sub : app.get_subcommands({}))
    c.commands.push_back(describe(*sub, path.empty() ? sub->get_name() : path + " " + sub->get_name()));
  return c;
}

// Options whose values are catalog names complete to them.
void add_names(CommandDoc& c, const CatalogNames& names) {
  for (auto& o : c.options) {
    if (o.flag || !o.values.empty() || o.names.empty()) continue;
    if (const auto found = names.find(o.names.front()); found != names.end()) o.values = found->second;
  }
  for (auto& sub : c.commands) add_names(sub, names);
}

void each_command(const CommandDoc& c, const std::function<void(const CommandDoc&)>& visit) {
  visit(c);
  for (const auto& sub : c.commands) each_command(sub, visit);
}

std::string joined(const std::vector<std::string>& words, const char* separator = " ") {
  std::string out;
  for (const auto& w : words) out += (out.empty() ? "" : separator) + w;
  return out;
}

// What a value of this option or positional completes to: its allowed values, files or directories.
std::string bash_values(const OptionDoc& o) {
  if (!o.values.empty()) return joined(o.values);
  if (o.file()) return "__file";
  if (o.dir()) return "__dir";
  return "";
}

}  // namespace

CatalogNames catalog_names(const std::string& config_dir, const char* argv0) {
  const CatalogLocation location = find_catalog_dir(config_dir, argv0);
  if (location.dir.empty()) return {};
  const CatalogFiles files = read_catalog_dir(location.dir);
  if (!files.errors.empty()) return {};
  const Json answer = Json::parse(Analyzer(files.sources).analyze_json(R"({"question": "catalog", "section": "menus"})"));
  if (!answer.value("ok", false)) return {};
  const Json& r = answer["result"];
  std::set<std::string> instances, models, gpus, regions;
  for (const auto& row : r.value("instances", Json::array())) {
    instances.insert(row.value("instance", ""));
    instances.insert(row.value("family", ""));
  }
  for (const auto& m : r.value("concrete_models", Json::array())) models.insert(m.value("key", ""));
  for (const auto& g : r.value("gpus", Json::array())) gpus.insert(g.value("key", ""));
  // prices/<provider>/<region>.json: the regions prices are loaded for.
  for (const auto& file : files.sources.price_files) {
    const std::string& name = file.name;
    const std::size_t slash = name.rfind('/'), dot = name.rfind(".json");
    if (slash != std::string::npos && dot != std::string::npos && dot > slash) regions.insert(name.substr(slash + 1, dot - slash - 1));
  }
  for (auto* set : {&instances, &models, &gpus, &regions}) set->erase("");
  auto list = [](const std::set<std::string>& set) { return std::vector<std::string>(set.begin(), set.end()); };
  return {{"--instance", list(instances)}, {"--current", list(instances)}, {"--instance-type", list(instances)},
          {"--family", list(instances)},   {"--model", list(models)},       {"--gpu", list(gpus)},
          {"--region", list(regions)},     {"--regions", list(regions)},    {"--dataset-region", list(regions)},
          {"--residency-region", list(regions)}};
}

std::string bash_completion(const CLI::App& app, const CatalogNames& names) {
  CommandDoc root = describe(app, "");
  add_names(root, names);
  std::ostringstream s;
  s << "# bash completion for gpufleet, generated from its options by `gpufleet completion bash`.\n"
       "# Install as share/bash-completion/completions/gpufleet, or source it.\n\n";
  s << "# The commands under a command path (\"\" is the program).\n_gpufleet_commands() {\n  case \"$1\" in\n";
  each_command(root, [&](const CommandDoc& c) {
    std::vector<std::string> names;
    for (const auto& sub : c.commands) names.push_back(sub.name);
    if (!names.empty()) s << "    \"" << c.path << "\") echo \"" << joined(names) << "\" ;;\n";
  });
  s << "  esac\n}\n\n";
  s << "# The options of a command path.\n_gpufleet_options() {\n  case \"$1\" in\n";
  each_command(root, [&](const CommandDoc& c) {
    std::vector<std::string> names;
    for (const auto& o : c.options) names.insert(names.end(), o.names.begin(), o.names.end());
    s << "    \"" << c.path << "\") echo \"" << joined(names) << "\" ;;\n";
  });
  s << "  esac\n}\n\n";
  s << "# Succeeds when option $2 of command path $1 takes a value, and prints what it completes to\n"
       "# (allowed values, __file, __dir, or nothing for free text).\n_gpufleet_value() {\n  case \"$1|$2\" in\n";
  each_command(root, [&](const CommandDoc& c) {
    for (const auto& o : c.options) {
      if (o.flag) continue;
      std::vector<std::string> patterns;
      for (const auto& n : o.names) patterns.push_back("\"" + c.path + "|" + n + "\"");
      s << "    " << joined(patterns, "|") << ") echo \"" << bash_values(o) << "\" ;;\n";
    }
  });
  s << "    *) return 1 ;;\n  esac\n}\n\n";
  s << "# What the positional arguments of a command path complete to.\n_gpufleet_positional() {\n  case \"$1\" in\n";
  each_command(root, [&](const CommandDoc& c) {
    if (!c.positionals.empty()) s << "    \"" << c.path << "\") echo \"" << bash_values(c.positionals.front()) << "\" ;;\n";
  });
  s << "  esac\n}\n\n";
  s << R"BASH(_gpufleet_reply() {  # _gpufleet_reply VALUES CURRENT-WORD
  case "$1" in
    __file) compopt -o filenames 2>/dev/null; COMPREPLY=($(compgen -f -- "$2")) ;;
    __dir) compopt -o filenames 2>/dev/null; COMPREPLY=($(compgen -d -- "$2")) ;;
    *) COMPREPLY=($(compgen -W "$1" -- "$2")) ;;
  esac
}

_gpufleet() {
  local cur="${COMP_WORDS[COMP_CWORD]}" prev="" path="" word values i
  [ "$COMP_CWORD" -gt 0 ] && prev="${COMP_WORDS[COMP_CWORD - 1]}"
  # The command path: the words that name commands, skipping options and their values.
  for ((i = 1; i < COMP_CWORD; i++)); do
    word="${COMP_WORDS[i]}"
    case "$word" in
      -*) if _gpufleet_value "$path" "$word" >/dev/null && [ $((i + 1)) -lt "$COMP_CWORD" ]; then i=$((i + 1)); fi ;;
      *) case " $(_gpufleet_commands "$path") " in *" $word "*) path="${path:+$path }$word" ;; esac ;;
    esac
  done
  if [[ "$prev" == -* ]] && values="$(_gpufleet_value "$path" "$prev")"; then
    _gpufleet_reply "$values" "$cur"
  elif [[ "$cur" == -* ]]; then
    _gpufleet_reply "$(_gpufleet_options "$path")" "$cur"
  elif [ -n "$(_gpufleet_commands "$path")" ]; then
    _gpufleet_reply "$(_gpufleet_commands "$path")" "$cur"
  else
    _gpufleet_reply "$(_gpufleet_positional "$path")" "$cur"
  fi
  return 0
}

complete -F _gpufleet gpufleet
)BASH";
  return s.str();
}

namespace {

// Text inside a zsh single-quoted word.
std::string zsh_quoted(const std::string& text) {
  std::string out;
  for (char c : text) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out;
}

// A description inside _arguments' [...] (brackets and colons escaped).
std::string zsh_brackets(const std::string& text) {
  std::string out;
  for (char c : text) {
    if (c == '[' || c == ']' || c == ':' || c == '\\') out += '\\';
    out += c;
  }
  return zsh_quoted(out);
}

std::string zsh_action(const OptionDoc& o) {
  if (!o.values.empty()) return "(" + joined(o.values) + ")";
  if (o.file()) return "_files";
  if (o.dir()) return "_files -/";
  return " ";
}

std::string zsh_function(const CommandDoc& c) {
  std::string name = c.path.empty() ? "_gpufleet" : "_gpufleet_";
  for (char ch : c.path) name += ch == ' ' || ch == '-' ? '_' : ch;
  return name;
}

void zsh_command(std::ostringstream& s, const CommandDoc& c) {
  for (const auto& sub : c.commands) zsh_command(s, sub);
  s << zsh_function(c) << "() {\n  local curcontext=\"$curcontext\" state line\n  _arguments -C -s";
  for (const auto& o : c.options) {
    std::string others;
    for (const auto& n : o.names) others += (others.empty() ? "" : " ") + n;
    for (const auto& n : o.names) {
      s << " \\\n    '" << (o.repeat ? "*" : "(" + others + ")") << n << (o.flag ? "" : "=") << "["
        << zsh_brackets(o.description) << "]";
      if (!o.flag) s << ":" << zsh_quoted(o.metavar) << ":" << zsh_quoted(zsh_action(o));
      s << "'";
    }
  }
  if (!c.commands.empty()) {
    s << " \\\n    '1: :->command' \\\n    '*:: :->args'\n";
    s << "  case $state in\n    command)\n      local -a commands\n      commands=(";
    for (const auto& sub : c.commands) s << "\n        '" << sub.name << ":" << zsh_quoted(sub.description) << "'";
    s << "\n      )\n      _describe -t commands 'gpufleet command' commands ;;\n    args)\n      case $words[1] in\n";
    for (const auto& sub : c.commands) s << "        " << sub.name << ") " << zsh_function(sub) << " ;;\n";
    s << "      esac ;;\n  esac\n}\n\n";
    return;
  }
  for (const auto& p : c.positionals)
    s << " \\\n    '" << (p.repeat ? "*" : "1") << ":" << zsh_quoted(p.metavar) << ":" << zsh_quoted(zsh_action(p)) << "'";
  s << "\n}\n\n";
}

// Text for a roff line: backslashes and dashes escaped, no control character first.
std::string roff(const std::string& text) {
  std::string out;
  for (char c : text) {
    if (c == '\\') out += "\\e";
    else if (c == '-') out += "\\-";
    else out += c;
  }
  if (!out.empty() && (out[0] == '.' || out[0] == '\'')) out = "\\&" + out;
  return out;
}

void man_option(std::ostringstream& s, const OptionDoc& o) {
  s << ".TP\n";
  for (std::size_t i = 0; i < o.names.size(); ++i) s << (i ? ", " : "") << "\\fB" << roff(o.names[i]) << "\\fR";
  if (o.names.empty()) s << "\\fI" << roff(o.metavar) << "\\fR" << (o.repeat ? "..." : "");
  else if (!o.flag) s << " \\fI" << roff(o.values.empty() ? o.metavar : joined(o.values, "|")) << "\\fR";
  s << "\n" << roff(o.description);
  if (!o.values.empty() && o.names.empty()) s << ": " << roff(joined(o.values, ", "));
  // A default that is a path is this build's, not the reader's: left out.
  if (!o.default_value.empty() && o.default_value[0] != '/') s << " (default: " << roff(o.default_value) << ")";
  if (o.repeat && !o.names.empty()) s << " (repeatable)";
  s << "\n";
}

}  // namespace

std::string zsh_completion(const CLI::App& app, const CatalogNames& names) {
  CommandDoc root = describe(app, "");
  add_names(root, names);
  std::ostringstream s;
  s << "#compdef gpufleet\n# zsh completion for gpufleet, generated from its options by `gpufleet completion zsh`.\n"
       "# Install as _gpufleet in a directory of $fpath (share/zsh/site-functions).\n\n";
  zsh_command(s, root);
  s << "_gpufleet \"$@\"\n";
  return s.str();
}

std::string man_page(const CLI::App& app, const std::string& version) {
  const CommandDoc root = describe(app, "");
  std::ostringstream s;
  s << ".\\\" The gpufleet manual page, generated from its options by `gpufleet man`.\n";
  s << ".TH GPUFLEET 1 \"\" \"gpufleet " << roff(version) << "\" \"User Commands\"\n";
  s << ".SH NAME\ngpufleet \\- GPU fleet sizing and cost calculator\n";
  s << ".SH SYNOPSIS\n.B gpufleet\n[\\fIGLOBAL OPTIONS\\fR] [\\fICOMMAND\\fR [\\fIOPTIONS\\fR] [\\fIARGUMENTS\\fR]]\n";
  s << ".SH DESCRIPTION\n" << roff(root.description) << "\n.PP\n";
  s << "Global options are accepted before or after the command.\n";
  std::istringstream footer(app.get_footer());
  for (std::string line; std::getline(footer, line);)
    if (line.rfind("Exit codes", 0) != 0) s << ".PP\n" << roff(line) << "\n";
  s << ".SH GLOBAL OPTIONS\n";
  for (const auto& o : root.options) man_option(s, o);
  s << ".SH COMMANDS\n";
  each_command(root, [&](const CommandDoc& c) {
    if (c.path.empty()) return;
    s << ".SS \"gpufleet " << roff(c.path) << "\"\n" << roff(c.description) << "\n";
    for (const auto& p : c.positionals) man_option(s, p);
    if (!c.footer.empty()) {
      std::istringstream lines(c.footer);
      std::string line;
      std::getline(lines, line);  // "Example:" or "Examples:"
      s << ".PP\n\\fI" << roff(line) << "\\fR\n.RS 4\n.nf\n";
      while (std::getline(lines, line)) s << roff(line.substr(line.find_first_not_of(' '))) << "\n";
      s << ".fi\n.RE\n";
    }
    std::string group;
    for (const auto& o : c.options) {
      if (o.group == "Global options" || std::count(o.names.begin(), o.names.end(), "--help")) continue;
      if (o.group != group && o.group != "Options") s << ".PP\n\\fI" << roff(o.group) << ":\\fR\n";
      group = o.group;
      man_option(s, o);
    }
  });
  s << ".SH ENVIRONMENT\n"
       ".TP\n\\fBGPUFLEET_CONFIG\\fR\nthe catalog directory, when \\fB\\-\\-config\\fR is not given\n"
       ".TP\n\\fBNO_COLOR\\fR\nwhen set, no ANSI colour even on a terminal\n"
       ".TP\n\\fBCOLUMNS\\fR\nthe width tables fit (default: the terminal's, or 100 when not a terminal)\n";
  s << ".SH EXIT STATUS\n" << roff(kExitCodesText) << ".\n";
  s << ".SH SEE ALSO\nThe README and docs/ of the gpufleet sources: docs/cli.md (every question with an example), "
       "docs/api.md (the JSON request and response).\n";
  return s.str();
}

}  // namespace gpufleet::cli
