import { fieldProps } from './form-field.tsx';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from './select.tsx';

/** A form select over a fixed list of values (a status, a priority), each shown by its label. */
export function ChoiceSelect<T extends string>({
  id,
  error,
  value,
  onValueChange,
  choices,
  labels,
}: {
  id: string;
  error: string | undefined;
  value: string;
  onValueChange: (value: string) => void;
  choices: readonly T[];
  labels: Record<T, string>;
}) {
  return (
    <Select value={value} onValueChange={onValueChange}>
      <SelectTrigger {...fieldProps(id, error)}>
        <SelectValue />
      </SelectTrigger>
      <SelectContent>
        {choices.map((c) => (
          <SelectItem key={c} value={c}>
            {labels[c]}
          </SelectItem>
        ))}
      </SelectContent>
    </Select>
  );
}
