package serbench;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** Long options: `--name value`, `--name=value` and flags. A TreeMap, so nothing depends on a seed. */
final class Args {
    final Map<String, String> opts = new TreeMap<>();
    final List<String> flags = new ArrayList<>();

    static Args parse(String[] argv, List<String> valued, List<String> flagNames) throws Main.Usage {
        Args a = new Args();
        for (int i = 0; i < argv.length; i++) {
            String arg = argv[i];
            if (!arg.startsWith("--")) throw new Main.Usage("unexpected argument \"" + arg + "\"");
            String name = arg.substring(2);
            String inline = null;
            int eq = name.indexOf('=');
            if (eq >= 0) {
                inline = name.substring(eq + 1);
                name = name.substring(0, eq);
            }
            if (valued.contains(name)) {
                if (inline == null) {
                    if (++i >= argv.length) throw new Main.Usage("--" + name + " needs a value");
                    inline = argv[i];
                }
                a.opts.put(name, inline);
            } else if (flagNames.contains(name) && inline == null) {
                a.flags.add(name);
            } else {
                throw new Main.Usage("unknown option \"" + arg + "\"");
            }
        }
        return a;
    }

    String get(String k) throws Main.Usage {
        String v = opts.get(k);
        if (v == null) throw new Main.Usage("--" + k + " is required");
        return v;
    }

    boolean has(String k) {
        return opts.containsKey(k);
    }

    long num(String k, long dflt) throws Main.Usage {
        String v = opts.get(k);
        if (v == null) return dflt;
        try {
            return Long.parseLong(v);
        } catch (NumberFormatException e) {
            throw new Main.Usage("--" + k + ": not a number: \"" + v + "\"");
        }
    }

    boolean flag(String k) {
        return flags.contains(k);
    }
}
