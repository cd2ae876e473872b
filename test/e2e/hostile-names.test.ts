/**
 * Names are anyone's: a spec file named with terminal escapes (clear the screen, set the title,
 * ring the bell) and a right-to-left override, through `validate`, prints them as escapes and
 * steers nothing; a spec file named like HTML, through `record`, shows on the record page as
 * text (the page that drives the app).
 */
import { describe, expect, test } from 'vitest';
import { Project, until } from '../support/project.ts';

const APP = 'app:\n  launch: ${env.FIXTURES}/open notes\n  window: Retrace Notes\n';

describe('hostile names', () => {
  test('validate prints a file name with ESC, OSC, BEL and U+202E as escapes', { timeout: 60_000 }, async () => {
    const name = 'specs/a\x1b[2J\x1b]0;pwn\x07\u202eb.yaml';
    const project = new Project().write(name, `name: A\n${APP}goals:\n  - id: g\n    goal: click "New"\n    planner: rules\n`);
    const result = await project.cli(['validate']);
    const output = result.stdout + result.stderr;
    expect(result.code, output).toBe(2);
    expect(output).toContain('specs/a\\x1b[2J\\x1b]0;pwn\\x07\\u202eb.yaml:8:5: goals[0] has an unknown key "planner"');
    expect(output).not.toMatch(/[\x00-\x08\x0b-\x1f\x7f\u202e]/);
  });

  test('the record page shows a file name made of HTML as text', { timeout: 150_000 }, async () => {
    const name = 'html/<img src=x onerror=alert(9)>.yaml';
    const project = new Project().write(name, `name: Notes\n${APP}goals:\n  - id: save\n    goal: click "New"\n`);
    const recording = project.start(['record', name, '--goal', 'save']);
    try {
      const url = await until(
        'the page address',
        () => /drive the app in a browser: (\S+)/.exec(recording.output.stdout)?.[1],
        120_000,
      ).catch((error: Error) => {
        throw new Error(`${error.message}\n${recording.output.stdout}\n${recording.output.stderr}`);
      });
      const page = await (await fetch(url)).text();
      expect(page).toContain('&lt;img src=x onerror=alert(9)&gt;');
      expect(page).not.toContain('<img');
    } finally {
      process.kill(-recording.child.pid!, 'SIGINT');
      await recording.result;
    }
  });
});
