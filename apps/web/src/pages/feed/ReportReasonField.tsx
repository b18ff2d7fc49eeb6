import { LIMITS } from '@campus/core/schemas';
import { Field } from '../../components/Field';

/** The reason of a report (a post's or a comment's): required, at most the API's length. */
export function ReportReasonField(props: {
  label: string;
  name: string;
  value: string;
  onChange: (reason: string) => void;
  error: string | undefined;
}) {
  return (
    <Field label={props.label} name={props.name} error={props.error} required>
      {(c) => (
        <textarea
          {...c}
          value={props.value}
          onChange={(e) => props.onChange(e.target.value)}
          rows={2}
          maxLength={LIMITS.report.reason.max}
          required
        />
      )}
    </Field>
  );
}
