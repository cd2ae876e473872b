/** Runs `work` with `vars` in this process's environment (a reused display reads it), then restores it. */
export const withProcessEnv = async <T>(vars: Record<string, string | undefined>, work: () => Promise<T>): Promise<T> => {
  const saved = Object.fromEntries(Object.keys(vars).map((key) => [key, process.env[key]]));
  const set = (values: Record<string, string | undefined>): void => {
    for (const [key, value] of Object.entries(values)) {
      if (value === undefined) delete process.env[key];
      else process.env[key] = value;
    }
  };
  set(vars);
  try {
    return await work();
  } finally {
    set(saved);
  }
};
