import { useEffect, useRef, type BaseSyntheticEvent } from 'react';
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm, type DefaultValues, type FieldValues, type UseFormReturn } from 'react-hook-form';
import { z } from 'zod';
import { whenIdle } from './idle.ts';

/**
 * Which fields the user touched, as react-hook-form tracks them: a field is dirty when its value differs
 * from the one the form loaded (typing a value and then restoring it makes it clean again).
 */
export type DirtyFields = Partial<Record<string, unknown>>;

/**
 * The patch of an edit form: the submitted (parsed) values of the fields the user changed, nothing else.
 * Per-field last-writer-wins only works when a patch carries only what the user touched (DESIGN.md
 * section 7): sending an untouched field would replace a newer value set elsewhere with the one this form
 * happened to load. Form fields and output fields share their names; an output field the form has no
 * control for is never part of a patch.
 */
export function dirtyPatch<O extends object>(dirty: DirtyFields, output: O): Partial<O> {
  const patch: Partial<O> = {};
  for (const key of Object.keys(output) as Extract<keyof O, string>[]) {
    if (isDirty(dirty[key])) patch[key] = output[key];
  }
  return patch;
}

/** A nested value (an array or object field) counts as dirty when any part of it is. */
function isDirty(mark: unknown): boolean {
  if (mark === true) return true;
  if (Array.isArray(mark)) return mark.some(isDirty);
  if (mark && typeof mark === 'object') return Object.values(mark).some(isDirty);
  return false;
}

export type PatchSubmit<O> = (output: O, patch: Partial<O>) => Promise<void> | void;

export interface PatchForm<I extends FieldValues, O extends object> extends UseFormReturn<I, unknown, O> {
  /**
   * The form's submit handler: validates with the schema, then calls `onValid` with the whole parsed
   * output (what a create sends) and the patch of the fields the user changed (what an edit sends).
   */
  submitPatch: (onValid: PatchSubmit<O>) => (event?: BaseSyntheticEvent) => Promise<void>;
  /**
   * Like `submitPatch` for a save that does not keep the form open (an optimistic edit): a valid form
   * calls `onValid` in the tap's own task, with no submitting state to draw first and no async resolver
   * hop in between (budget B7); an invalid one goes through `submitPatch`'s path, which shows the errors.
   */
  submitPatchNow: (onValid: (output: O, patch: Partial<O>) => void) => (event?: BaseSyntheticEvent) => void;
}

/**
 * Every form that writes a record goes through this hook: react-hook-form with the form's zod schema as
 * resolver (its messages are the ones shown under the fields), and the patch computed from what the form
 * loaded (`defaultValues`) versus what it submits. Mount the form when it opens so it loads afresh.
 */
export function usePatchForm<I extends FieldValues, O extends object>(
  schema: z.ZodType<O, I>,
  defaultValues: I,
): PatchForm<I, O> {
  const form = useForm<I, unknown, O>({
    resolver: zodResolver(schema),
    defaultValues: defaultValues as DefaultValues<I>,
  });
  // Reading the dirty map during render subscribes to it (react-hook-form's form state is a proxy that only
  // tracks what a render read); the handler then reads the live map at submit time.
  void form.formState.dirtyFields;
  const submitPatch = (onValid: PatchSubmit<O>) =>
    form.handleSubmit((output) =>
      onValid(output, dirtyPatch(form.formState.dirtyFields as DirtyFields, output)),
    );
  // The last check of the values as they are now: made in an idle moment after each change, so a tap on
  // save finds the form validated already (budget B7); any change of a value throws it away.
  const checked = useRef<{ parsed: ReturnType<typeof schema.safeParse> | null } | null>(null);
  // Whether the change subscription that throws a check away is live: without it nothing is kept.
  const watching = useRef(false);
  const check = () => {
    if (watching.current && checked.current) return checked.current.parsed;
    let parsed: ReturnType<typeof schema.safeParse> | null;
    try {
      parsed = schema.safeParse(form.getValues());
    } catch {
      // A schema that cannot answer synchronously (an async refinement) takes the resolver's path.
      parsed = null;
    }
    if (watching.current) checked.current = { parsed };
    return parsed;
  };
  // Only a form that saves through submitPatchNow (asked for while rendering) checks ahead.
  const checksAhead = useRef(false);
  const { watch } = form;
  useEffect(() => {
    if (!checksAhead.current) return;
    const sub = watch(() => {
      checked.current = null;
      cancel();
      cancel = whenIdle(check);
    });
    watching.current = true;
    checked.current = null;
    let cancel = whenIdle(check);
    return () => {
      watching.current = false;
      checked.current = null;
      cancel();
      sub.unsubscribe();
    };
    // One subscription per form: check reads it through a ref and the control's stable getValues.
  }, [watch]);
  const submitPatchNow = (onValid: (output: O, patch: Partial<O>) => void) => {
    checksAhead.current = true;
    return (event?: BaseSyntheticEvent) => {
      event?.preventDefault();
      const parsed = check();
      if (parsed?.success) {
        onValid(parsed.data, dirtyPatch(form.formState.dirtyFields as DirtyFields, parsed.data));
        return;
      }
      void form.handleSubmit((output) =>
        onValid(output, dirtyPatch(form.formState.dirtyFields as DirtyFields, output)),
      )(event);
    };
  };
  return { ...form, submitPatch, submitPatchNow };
}

export type Validated<O, K extends string> =
  { ok: true; data: O } | { ok: false; errors: Partial<Record<K, string>> };

/**
 * A form's zod schema (for `usePatchForm`) from its validator: the form values in, the parsed output out,
 * each message reported on its field. Validators word their messages for the form and build on the shared
 * schemas, so the device and the server keep one rule each.
 */
export function formSchema<I extends FieldValues, O extends object>(
  validate: (values: I) => Validated<O, Extract<keyof I, string>>,
): z.ZodType<O, I> {
  return z.custom<I>().transform((values, ctx) => {
    const result = validate(values);
    if (result.ok) return result.data;
    for (const [field, message] of Object.entries(result.errors)) {
      if (typeof message === 'string') ctx.addIssue({ code: 'custom', path: [field], message });
    }
    return z.NEVER;
  });
}
