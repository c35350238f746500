import { Box, Card } from '@mui/material';
import { createContext, type ReactElement, type ReactNode, useContext } from 'react';
import {
  Edit,
  type EditProps,
  type RedirectionSideEffect,
  SimpleForm,
  type SimpleFormProps,
} from 'react-admin';
import { ReadOnlyBanner, useReadOnly } from '../auth/permission';
import { ConflictAlert, useConflict } from './ConflictAlert';
import { EditToolbar } from './EditToolbar';

const ConflictContext = createContext<(() => void) | null>(null);

/**
 * Inside an `EditPage`: shows its reload offer. For an action of the page other than save (a review transition)
 * answered with a stale version; a save's own 40900 is caught by the page.
 */
export function useReportConflict(): () => void {
  return useContext(ConflictContext) ?? noop;
}
const noop = () => undefined;

export interface EditPageProps
  extends Omit<EditProps, 'children' | 'mutationOptions' | 'mutationMode' | 'redirect'> {
  /** Where a save goes: the list by default. */
  redirect?: RedirectionSideEffect;
  /** The form's inputs. */
  children: ReactNode;
  /** The form's toolbar: save and delete (admins, asked first) by default; react-admin's own is `<Toolbar />`. */
  toolbar?: ReactElement | false;
  /** Replaces react-admin's success step (its notice and redirect) after a save. */
  onSaved?: () => void;
  /** More props of the form (defaultValues, validate…). */
  form?: Omit<SimpleFormProps, 'children' | 'toolbar'>;
  /** With `component="div"`: the alert and the form in a card, and `after` (more cards) below it. */
  after?: ReactNode;
}

/**
 * An edit page of a versioned record: saves pessimistically (the API's answer first), and a stale version
 * (40900: someone else saved first) shows a warning with a reload instead of overwriting. Defaults: back to the
 * list after a save, no top actions.
 */
export function EditPage({
  children,
  toolbar = <EditToolbar />,
  onSaved,
  form,
  after,
  redirect = 'list',
  actions = false,
  component,
  sx,
  ...edit
}: EditPageProps) {
  const { conflict, setConflict, onError } = useConflict();
  // A role the route lets in but the API would refuse the save to reads the page: no save, every input disabled (a
  // disabled fieldset reaches inputs a screen adds itself), and the reason at the top.
  const readOnly = useReadOnly();
  const body = (
    <>
      {readOnly && <ReadOnlyBanner />}
      <ConflictAlert show={conflict} onReload={() => setConflict(false)} />
      <SimpleForm toolbar={readOnly ? false : toolbar} {...form}>
        {readOnly ? (
          <Box component="fieldset" disabled sx={{ border: 0, p: 0, m: 0, minWidth: 0, width: '100%' }}>
            {children}
          </Box>
        ) : (
          children
        )}
      </SimpleForm>
    </>
  );
  return (
    <ConflictContext.Provider value={() => setConflict(true)}>
      <Edit
        mutationMode="pessimistic"
        redirect={redirect}
        mutationOptions={onSaved ? { onError, onSuccess: onSaved } : { onError }}
        actions={actions}
        component={component}
        // A card clips what overflows it, which would also pin a sticky toolbar (ReviewToolbar) inside it.
        sx={[
          { '& .RaEdit-card, & > .RaEdit-main > .MuiCard-root': { overflow: 'visible' } },
          ...(Array.isArray(sx) ? sx : [sx]),
        ]}
        {...edit}
      >
        {component === 'div' ? <Card>{body}</Card> : body}
        {after}
      </Edit>
    </ConflictContext.Provider>
  );
}
