// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, renderHook, waitFor } from '@testing-library/react';
import { formSchema, usePatchForm } from './form-patch.ts';

// submitPatchNow (budget B7): the form is validated in an idle moment after each change, so the tap on
// save does not wait for it; a value changed after that check is never saved unchecked.

afterEach(cleanup);

function setup(saved: (output: { n: number; note: string }, patch: object) => void) {
  const validate = vi.fn((values: { n: string; note: string }) => {
    const n = Number(values.n);
    return Number.isInteger(n)
      ? { ok: true as const, data: { n, note: values.note } }
      : { ok: false as const, errors: { n: 'N must be whole' } };
  });
  const schema = formSchema(validate);
  // As a dialog uses it: the save handler made while rendering.
  const hook = renderHook(() => {
    const form = usePatchForm(schema, { n: '1', note: 'a' });
    return { ...form, save: form.submitPatchNow(saved) };
  });
  return { validate, hook };
}

describe('submitPatchNow', () => {
  it('finds the form checked already after a change, and saves the parsed values with the patch', async () => {
    const saved = vi.fn();
    const { validate, hook } = setup(saved);
    act(() => hook.result.current.setValue('n', '7', { shouldDirty: true }));
    await waitFor(() => expect(validate).toHaveBeenLastCalledWith({ n: '7', note: 'a' }));
    const calls = validate.mock.calls.length;
    act(() => hook.result.current.save());
    expect(saved).toHaveBeenCalledWith({ n: 7, note: 'a' }, { n: 7 });
    expect(validate.mock.calls.length).toBe(calls);
  });

  it('checks a value changed just before the tap, and an invalid one shows its message instead of saving', async () => {
    const saved = vi.fn();
    const { validate, hook } = setup(saved);
    // The loaded values are checked (valid) before the change below.
    await waitFor(() => expect(validate).toHaveBeenCalledWith({ n: '1', note: 'a' }));
    act(() => hook.result.current.setValue('n', '1.5', { shouldDirty: true }));
    await act(async () => hook.result.current.save());
    expect(saved).not.toHaveBeenCalled();
    await waitFor(() =>
      expect(hook.result.current.getFieldState('n').error?.message).toBe('N must be whole'),
    );

    act(() => hook.result.current.setValue('n', '3', { shouldDirty: true }));
    act(() => hook.result.current.save());
    expect(saved).toHaveBeenCalledWith({ n: 3, note: 'a' }, { n: 3 });
  });
});
