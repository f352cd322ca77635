/** Report formatting: the same helpers the Compare view uses, so both print the same strings. */
export {
  fmtCi as ci,
  fmtMoney as money,
  fmtNum as num,
  fmtP as pValue,
  fmtPct as pct,
  fmtPctCi as pctCi,
  NOT_DEFINED,
} from '../../shared/contract/metrics'
