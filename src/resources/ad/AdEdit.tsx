import { Box, Card, CardContent, Typography } from '@mui/material';
import {
  BooleanInput,
  CheckboxGroupInput,
  Create,
  maxLength,
  maxValue,
  minValue,
  NumberInput,
  ReferenceInput,
  required,
  SelectInput,
  SimpleForm,
  TextInput,
  useRecordContext,
  useTranslate,
} from 'react-admin';
import { useWatch } from 'react-hook-form';
import { useParams } from 'react-router-dom';
import { isLandingUrl } from '../../../common/ad';
import { EditPage } from '../../components/EditPage';
import { ImageInput } from '../../images/ImageInput';
import { SecureImage } from '../../images/SecureImage';
import { FormSection, InstantInput, usePlatformChoices } from '../setting/shared';
import { AD_MSG, ADVERTISER_RESOURCE, adEditPath, POSITION_RESOURCE } from './names';
import { AdStateChip, deviceChoices, pricingChoices, typeChoices } from './shared';

const f = (name: string) => `${AD_MSG}.fields.${name}`;

/** The landing URL rule of the API (http and https only), said before saving. */
const landing = (v: unknown) =>
  v && !isLandingUrl(String(v)) ? `${AD_MSG}.validation.landingUrl` : undefined;
const endAfterStart = (end: unknown, values: Record<string, unknown>) =>
  end && values.startAt && new Date(end as string) <= new Date(values.startAt as string)
    ? `${AD_MSG}.validation.endBeforeStart`
    : undefined;

/** How the material shows: its picture, its words, or its video's address. */
function CreativePreview() {
  const translate = useTranslate();
  const [type, creative, body, title] = useWatch({ name: ['type', 'creative', 'body', 'title'] });
  return (
    <Card variant="outlined" sx={{ position: { lg: 'sticky' }, top: 16 }}>
      <CardContent>
        <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 600, mb: 1 }}>
          {translate(`${AD_MSG}.preview.title`)}
        </Typography>
        {type === 'text' ? (
          <Typography variant="body1" sx={{ color: 'primary.main', textDecoration: 'underline' }}>
            {body || translate(`${AD_MSG}.preview.noText`)}
          </Typography>
        ) : type === 'video' ? (
          <Typography variant="body2" sx={{ wordBreak: 'break-all' }}>
            {creative || translate(`${AD_MSG}.preview.noVideo`)}
          </Typography>
        ) : creative ? (
          <SecureImage
            src={creative}
            alt={title || translate(`${AD_MSG}.preview.title`)}
            sx={{ maxWidth: '100%', maxHeight: 320 }}
          />
        ) : (
          <Typography variant="body2" color="text.secondary">
            {translate(`${AD_MSG}.preview.noImage`)}
          </Typography>
        )}
      </CardContent>
    </Card>
  );
}

function CreativeInput() {
  const type = useWatch({ name: 'type' });
  if (type === 'text')
    return (
      <TextInput
        source="body"
        label={f('body')}
        multiline
        minRows={2}
        fullWidth
        validate={[required(), maxLength(500)]}
      />
    );
  if (type === 'video')
    return (
      <TextInput
        source="creative"
        label={f('video')}
        fullWidth
        validate={[required(), landing]}
        helperText={`${AD_MSG}.help.video`}
      />
    );
  return <ImageInput source="creative" label={f('creative')} validate={required()} />;
}

function Inputs() {
  const platforms = usePlatformChoices();
  return (
    <Box
      sx={{
        display: 'grid',
        gap: 3,
        gridTemplateColumns: { lg: 'minmax(0, 3fr) minmax(0, 2fr)' },
        width: '100%',
      }}
    >
      <Box>
        <FormSection title={`${AD_MSG}.sections.what`}>
          <TextInput source="title" label={f('title')} validate={[required(), maxLength(100)]} fullWidth />
          <SelectInput source="type" label={f('type')} choices={typeChoices} validate={required()} />
          <CreativeInput />
          <TextInput
            source="landingUrl"
            label={f('landingUrl')}
            fullWidth
            validate={[required(), maxLength(1024), landing]}
            helperText={`${AD_MSG}.help.landingUrl`}
          />
        </FormSection>
        <FormSection title={`${AD_MSG}.sections.where`}>
          <Box sx={{ display: 'flex', gap: 2, flexWrap: 'wrap' }}>
            <ReferenceInput source="positionId" reference={POSITION_RESOURCE} perPage={100}>
              <SelectInput label={f('positionId')} optionText="name" validate={required()} />
            </ReferenceInput>
            <ReferenceInput source="advertiserId" reference={ADVERTISER_RESOURCE} perPage={100}>
              <SelectInput label={f('advertiserId')} optionText="name" emptyText={`${AD_MSG}.house`} />
            </ReferenceInput>
            <SelectInput source="device" label={f('device')} choices={deviceChoices} validate={required()} />
            <NumberInput
              source="weight"
              label={f('weight')}
              min={1}
              max={1000}
              step={1}
              validate={[required(), minValue(1), maxValue(1000)]}
            />
          </Box>
          <CheckboxGroupInput
            source="platforms"
            label={f('platforms')}
            choices={platforms}
            helperText={`${AD_MSG}.help.platforms`}
          />
          <Box sx={{ display: 'flex', gap: 2, flexWrap: 'wrap' }}>
            <InstantInput source="startAt" label={f('startAt')} validate={required()} />
            <InstantInput
              source="endAt"
              label={f('endAt')}
              validate={endAfterStart}
              helperText={`${AD_MSG}.help.endAt`}
            />
          </Box>
        </FormSection>
        <FormSection title={`${AD_MSG}.sections.money`}>
          <Box sx={{ display: 'flex', gap: 2, flexWrap: 'wrap', alignItems: 'center' }}>
            <SelectInput
              source="pricing"
              label={f('pricing')}
              choices={pricingChoices}
              validate={required()}
            />
            <NumberInput
              source="price"
              label={f('price')}
              min={0}
              step={0.01}
              validate={[required(), minValue(0)]}
              helperText={`${AD_MSG}.help.price`}
            />
            <BooleanInput source="enabled" label={f('enabled')} />
          </Box>
        </FormSection>
      </Box>
      <CreativePreview />
    </Box>
  );
}

function EditTitle() {
  const record = useRecordContext();
  const translate = useTranslate();
  return (
    <Box component="span" sx={{ display: 'inline-flex', gap: 1, alignItems: 'center' }}>
      {translate(`${AD_MSG}.page.edit`, { title: record?.title ?? '' })}
      {record?.state && <AdStateChip state={record.state} />}
    </Box>
  );
}

function CreateAd() {
  const translate = useTranslate();
  return (
    <Create title={translate(`${AD_MSG}.page.create`)} redirect={(_r, id) => adEditPath(id)} actions={false}>
      <SimpleForm
        defaultValues={{
          type: 'image',
          device: 'all',
          weight: 1,
          pricing: 'cpm',
          price: 0,
          enabled: true,
          platforms: [],
          creative: '',
          body: '',
          advertiserId: null,
          startAt: new Date().toISOString(),
        }}
      >
        <Inputs />
      </SimpleForm>
    </Create>
  );
}

/** `/ad/edit/:id?` (SPEC.md §2): a material with an id, a new one without; the creative is previewed beside. */
export function AdEdit() {
  const { id } = useParams();
  return id ? (
    <EditPage key={id} id={id} title={<EditTitle />}>
      <Inputs />
    </EditPage>
  ) : (
    <CreateAd />
  );
}
