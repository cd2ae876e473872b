/**
 * Java Swing and AWT publish their widgets only through a bridge loaded into the JVM: the ATK
 * wrapper (Debian: libatk-wrapper-java and libatk-wrapper-java-jni). Nothing switches it on by
 * default, and no doc of the JDK names the three options it needs; retrace passes them to every
 * JVM an app starts (`JAVA_TOOL_OPTIONS` reaches a JVM behind a launch script too; any other
 * program ignores it).
 */
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

export interface AtkWrapper {
  /** The wrapper's classes (java-atk-wrapper.jar). */
  readonly jar: string;
  /** The folder holding its JNI library (libatk-wrapper.so). */
  readonly jniDir: string;
}

const JAR_NAME = 'java-atk-wrapper.jar';
const JNI_NAME = 'libatk-wrapper.so';

/** Where distributions put it: Debian and Ubuntu (jar and multiarch jni apart), Fedora (together). */
const candidates = (): { jars: string[]; jniDirs: string[] } => {
  const multiarch = existsSync('/usr/lib') ? readdirSync('/usr/lib').filter((d) => /-linux-gnu[a-z]*$/.test(d)) : [];
  return {
    jars: ['/usr/share/java', '/usr/lib64/java-atk-wrapper', '/usr/lib/java-atk-wrapper'].map((d) => join(d, JAR_NAME)),
    jniDirs: [
      ...multiarch.map((d) => join('/usr/lib', d, 'jni')),
      '/usr/lib/jni',
      '/usr/lib64/java-atk-wrapper',
      '/usr/lib/java-atk-wrapper',
    ],
  };
};

let found: AtkWrapper | null | undefined;

/** The installed ATK wrapper, or undefined; looked up once per process. */
export const findAtkWrapper = (): AtkWrapper | undefined => {
  if (found === undefined) {
    const { jars, jniDirs } = candidates();
    const jar = jars.find((path) => existsSync(path));
    const jniDir = jniDirs.find((dir) => existsSync(join(dir, JNI_NAME)));
    found = jar !== undefined && jniDir !== undefined ? { jar, jniDir } : null;
  }
  return found ?? undefined;
};

/**
 * `JAVA_TOOL_OPTIONS` that load the wrapper: the bridge as the assistive technology, its jar
 * on the boot class path (an app's own `-cp` replaces the class path, never that), and its JNI
 * folder as the library path. Options the user set already come after, so they win.
 */
export const javaAccessibilityEnv = (wrapper: AtkWrapper, inherited: string | undefined): Readonly<Record<string, string>> => ({
  JAVA_TOOL_OPTIONS: [
    '-Djavax.accessibility.assistive_technologies=org.GNOME.Accessibility.AtkWrapper',
    `-Xbootclasspath/a:${wrapper.jar}`,
    `-Djava.library.path=${wrapper.jniDir}`,
    ...(inherited ? [inherited] : []),
  ].join(' '),
});
