import { describe, expect, test } from 'vitest';
import { accessibilityWanted, computerToolSwitch, drawingReportsWanted, modelSwitch } from '../src/switches.ts';

describe('environment switches', () => {
  test.each([
    [undefined, true],
    ['', true],
    ['on', true],
    ['1', true],
    ['off', false],
    [' OFF ', false],
    ['0', false],
    ['false', false],
    ['No', false],
  ])('RETRACE_DRAWING or RETRACE_ACCESSIBILITY set to %j leaves its feature on: %s', (value, on) => {
    expect(drawingReportsWanted({ RETRACE_DRAWING: value })).toBe(on);
    expect(accessibilityWanted({ RETRACE_ACCESSIBILITY: value })).toBe(on);
  });

  test('a switch reads its own variable only', () => {
    expect(drawingReportsWanted({ RETRACE_ACCESSIBILITY: 'off' })).toBe(true);
    expect(accessibilityWanted({ RETRACE_DRAWING: 'off' })).toBe(true);
  });

  test('RETRACE_MODEL and RETRACE_COMPUTER_TOOL: trimmed, and a blank one is unset', () => {
    expect(modelSwitch({ RETRACE_MODEL: ' claude-x ' })).toBe('claude-x');
    expect(modelSwitch({ RETRACE_MODEL: '  ' })).toBeUndefined();
    expect(modelSwitch({})).toBeUndefined();
    expect(computerToolSwitch({ RETRACE_COMPUTER_TOOL: 'computer_20250124' })).toBe('computer_20250124');
    expect(computerToolSwitch({ RETRACE_COMPUTER_TOOL: '' })).toBeUndefined();
    expect(computerToolSwitch({ RETRACE_MODEL: 'claude-x' })).toBeUndefined();
  });
});
