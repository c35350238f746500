import CampaignIcon from '@mui/icons-material/Campaign';
import FindReplaceIcon from '@mui/icons-material/FindReplace';
import { Box, Stack, Typography } from '@mui/material';
import {
  Button,
  CreateButton,
  FunctionField,
  List,
  NumberInput,
  ReferenceField,
  ReferenceInput,
  SearchInput,
  TextField,
  TextInput,
  TopToolbar,
  useListContext,
  useTranslate,
} from 'react-admin';
import { useNavigate } from 'react-router-dom';
import { Permission } from '../../auth/permission';
import { SwitchBulkButtons } from '../../components/BulkConfirmButton';
import { type CsvColumn, ExportCsvButton } from '../../components/ExportCsvButton';
import { FilterSelectInput } from '../../components/FilterSelectInput';
import { Datagrid, ListPagination, LocaleDateField } from '../../layout/listParts';
import { PlatformChips, usePlatformChoices } from '../setting/shared';
import { AdvertisersButton } from './Advertisers';
import { AD_MSG, ADVERTISER_RESOURCE, adEditPath, POSITION_RESOURCE, SECTION_MSG } from './names';
import { AdStateChip, pricingChoices, stateChoices, typeChoices } from './shared';

const f = (name: string) => `${AD_MSG}.fields.${name}`;

function useFilters() {
  const translate = useTranslate();
  const platforms = usePlatformChoices();
  return [
    <SearchInput key="q" source="q" alwaysOn placeholder={translate(`${AD_MSG}.filters.q`)} />,
    <ReferenceInput key="positionId" source="positionId" reference={POSITION_RESOURCE} perPage={100} alwaysOn>
      <FilterSelectInput label={f('positionId')} optionText="name" />
    </ReferenceInput>,
    <ReferenceInput
      key="advertiserId"
      source="advertiserId"
      reference={ADVERTISER_RESOURCE}
      perPage={100}
      alwaysOn
    >
      <FilterSelectInput label={f('advertiserId')} optionText="name" />
    </ReferenceInput>,
    <FilterSelectInput key="state" source="state" choices={stateChoices} alwaysOn label={f('state')} />,
    <FilterSelectInput key="type" source="type" choices={typeChoices} label={f('type')} />,
    <FilterSelectInput key="pricing" source="pricing" choices={pricingChoices} label={f('pricing')} />,
    <NumberInput
      key="expiringDays"
      source="expiringDays"
      min={1}
      max={365}
      label={`${AD_MSG}.filters.expiringDays`}
    />,
    <FilterSelectInput key="platform" source="platform" choices={platforms} label={f('platforms')} />,
    <TextInput key="url" source="url" label={`${AD_MSG}.filters.url`} />,
  ];
}

const csvColumns: CsvColumn[] = [
  { label: f('id'), value: (r) => r.id },
  { label: f('title'), value: (r) => r.title },
  { label: f('type'), value: (r, t) => t(`${SECTION_MSG}.types.${r.type}`) },
  { label: f('positionId'), value: (r) => r.positionId },
  { label: f('advertiserId'), value: (r) => r.advertiserId ?? '' },
  { label: f('landingUrl'), value: (r) => r.landingUrl },
  { label: f('pricing'), value: (r, t) => t(`${SECTION_MSG}.pricing.${r.pricing}`) },
  { label: f('price'), value: (r) => r.price },
  { label: f('weight'), value: (r) => r.weight },
  { label: f('startAt'), value: (r) => r.startAt },
  { label: f('endAt'), value: (r) => r.endAt ?? '' },
  { label: f('state'), value: (r, t) => t(`${SECTION_MSG}.states.${r.state}`) },
];

/** To the batch replacement of landing links, carrying the list's current filter. */
function ReplaceLinksButton() {
  const { filterValues } = useListContext();
  const navigate = useNavigate();
  return (
    <Button
      label={`${AD_MSG}.action.replace`}
      onClick={() => navigate('/ad/editBatch', { state: { filter: filterValues } })}
    >
      <FindReplaceIcon />
    </Button>
  );
}

const Actions = () => (
  <TopToolbar>
    <Permission need="ad.edit">
      <CreateButton label={`${AD_MSG}.action.create`} />
      <ReplaceLinksButton />
    </Permission>
    <AdvertisersButton />
    <ExportCsvButton columns={csvColumns} filename="ads" done={`${AD_MSG}.notifications.exported`} />
  </TopToolbar>
);

/** Selected rows: replace their links, enable, pause, delete (admins; confirmed; one transaction). */
function BulkActions() {
  const { selectedIds } = useListContext();
  const navigate = useNavigate();
  return (
    <Permission need="ad.edit">
      <Button
        label={`${AD_MSG}.action.replace`}
        onClick={() => navigate('/ad/editBatch', { state: { ids: selectedIds } })}
      >
        <FindReplaceIcon />
      </Button>
      <SwitchBulkButtons msg={AD_MSG} done={`${AD_MSG}.notifications.batchDone`} off="pause" />
    </Permission>
  );
}

function Empty() {
  const translate = useTranslate();
  return (
    <Box sx={{ textAlign: 'center', py: 8, color: 'text.secondary', width: '100%' }} role="status">
      <CampaignIcon sx={{ fontSize: 64 }} aria-hidden />
      <Typography variant="h6" component="p" color="text.primary">
        {translate(`${AD_MSG}.empty`)}
      </Typography>
      <Typography variant="body2" sx={{ mb: 2 }}>
        {translate(`${AD_MSG}.emptyHint`)}
      </Typography>
      <Box sx={{ display: 'flex', gap: 1, justifyContent: 'center' }}>
        <Permission need="ad.edit">
          <CreateButton variant="contained" label={`${AD_MSG}.action.create`} />
        </Permission>
        <AdvertisersButton />
      </Box>
    </Box>
  );
}

/** The materials (/ad/list): filters, sorts, the derived state, batches, CSV, and the way to the link replacement. */
export function AdList() {
  return (
    <List
      filters={useFilters()}
      actions={<Actions />}
      sort={{ field: 'id', order: 'DESC' }}
      perPage={20}
      pagination={<ListPagination />}
      empty={<Empty />}
    >
      <Datagrid rowClick={(id) => adEditPath(id)} bulkActionButtons={<BulkActions />}>
        <TextField source="id" label={f('id')} />
        <FunctionField
          source="title"
          label={f('title')}
          render={(r) => (
            <Stack>
              <Typography variant="body2" component="span" sx={{ fontWeight: 500 }}>
                {r.title}
              </Typography>
              <Typography
                variant="caption"
                component="span"
                color="text.secondary"
                sx={{ maxWidth: 320, overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}
                title={r.landingUrl}
              >
                {r.landingUrl}
              </Typography>
            </Stack>
          )}
        />
        <FunctionField
          source="type"
          label={f('type')}
          sortable={false}
          render={(r) => <TypeText type={r.type} />}
        />
        <ReferenceField
          source="positionId"
          reference={POSITION_RESOURCE}
          link={false}
          label={f('positionId')}
          sortable={false}
        >
          <TextField source="name" />
        </ReferenceField>
        <ReferenceField
          source="advertiserId"
          reference={ADVERTISER_RESOURCE}
          link={false}
          label={f('advertiserId')}
          sortable={false}
          emptyText="—"
        >
          <TextField source="name" />
        </ReferenceField>
        <FunctionField
          source="platforms"
          label={f('platforms')}
          sortable={false}
          render={(r) => <PlatformChips keys={r.platforms} />}
        />
        <FunctionField
          source="price"
          label={f('price')}
          render={(r) => <PriceText pricing={r.pricing} price={r.price} />}
        />
        <TextField source="weight" label={f('weight')} />
        <LocaleDateField source="startAt" label={f('startAt')} showTime />
        <LocaleDateField source="endAt" label={f('endAt')} showTime emptyText="—" />
        <FunctionField
          source="state"
          label={f('state')}
          sortable={false}
          render={(r) => <AdStateChip state={r.state} />}
        />
      </Datagrid>
    </List>
  );
}

function TypeText({ type }: { type: string }) {
  const translate = useTranslate();
  return <>{translate(`${SECTION_MSG}.types.${type}`)}</>;
}

function PriceText({ pricing, price }: { pricing: string; price: number }) {
  const translate = useTranslate();
  return (
    <Typography variant="body2" component="span" sx={{ whiteSpace: 'nowrap' }}>
      {`${translate(`${SECTION_MSG}.pricing.${pricing}`)} ${price.toFixed(2)}`}
    </Typography>
  );
}
